package lab.continuationreplay.history;

import java.util.Optional;

/**
 * The kinds of attempt folder a run leaves, in the order the checker lists them, and the one place a folder's name
 * says which it is: an SDK column ({@code java}, {@code java-http}), an SDK's HTTP-only cases
 * ({@code http-cases-<sdk>}), a cross-SDK cell ({@code cross-<a>-to-<b>}), a client cell
 * ({@code client-<client>-server-<server>}), or {@code lab replicas}' cells ({@code replicas-<sdk>},
 * {@code replicas-cross}).
 */
public enum AttemptKind {
    SDK(null),
    HTTP_CASES(Layout.HTTP_CASES_PREFIX),
    CROSS(Layout.CROSS_PREFIX),
    CLIENT(Layout.CLIENT_PREFIX),
    REPLICAS(Layout.REPLICAS_PREFIX);

    private final String prefix;

    AttemptKind(String prefix) {
        this.prefix = prefix;
    }

    /** The kind a folder of this name holds; empty for a name no kind has (an SDK column is named by {@link Sdk}). */
    public static Optional<AttemptKind> of(String name) {
        for (AttemptKind kind : values()) {
            if (kind.prefix != null && name.startsWith(kind.prefix)) {
                return Optional.of(kind);
            }
        }
        String sdk = name.endsWith(Layout.HTTP_SUFFIX) ? name.substring(0, name.length() - Layout.HTTP_SUFFIX.length()) : name;
        return Layout.SDK_COLUMNS.contains(sdk) ? Optional.of(SDK) : Optional.empty();
    }

    /** The kind of an attempt folder the checker is asked to judge: an unknown name is judged as an SDK column's. */
    public static AttemptKind judged(String name) {
        return of(name).orElse(SDK);
    }
}
