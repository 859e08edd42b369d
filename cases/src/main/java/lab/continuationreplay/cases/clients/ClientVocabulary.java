package lab.continuationreplay.cases.clients;

import java.util.Map;

/**
 * How each official client tells the application that a reply never came, written down from the probe facts before
 * any run (docs/clients.md): the exception type, and for the TypeScript client the {@code SdkError} code. A thrown
 * error that carries a JSON-RPC error from the server is read by its code and message instead, the same for both.
 */
public final class ClientVocabulary {
    /** A thrown error, as a client record names it: its type and, where the SDK has one, its own code. */
    public record Thrown(String type, String code) {}

    private static final Map<String, Map<Thrown, Seen.Kind>> UNKNOWN_OUTCOMES = Map.of(
            "java", Map.of(
                    new Thrown("McpResponseLostException", null), Seen.Kind.LOST,
                    new Thrown("McpTimeoutException", null), Seen.Kind.TIMEOUT),
            "typescript", Map.of(
                    new Thrown("SdkError", "CONNECTION_CLOSED"), Seen.Kind.LOST,
                    new Thrown("SdkError", "REQUEST_TIMEOUT"), Seen.Kind.TIMEOUT));

    private ClientVocabulary() {}

    /** {@link Seen.Kind#LOST}, {@link Seen.Kind#TIMEOUT}, or null when {@code thrown} is neither for {@code client}. */
    public static Seen.Kind unknownOutcome(String client, Thrown thrown) {
        Map<Thrown, Seen.Kind> words = UNKNOWN_OUTCOMES.getOrDefault(client, Map.of());
        Seen.Kind kind = words.get(thrown);
        return kind != null ? kind : words.get(new Thrown(thrown.type(), null));
    }
}
