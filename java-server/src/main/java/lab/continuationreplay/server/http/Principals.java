package lab.continuationreplay.server.http;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who an HTTP request acts for. Normally a bearer token names the principal; only the conformance profile, whose
 * official suite cannot send a token, serves one fixed principal instead, and it must be switched on explicitly.
 */
public sealed interface Principals permits Principals.Bearer, Principals.Fixed {
    /** The principal of a request with this {@code Authorization} header value; empty means 401. */
    Optional<String> principalOf(String authorization);

    /** Every principal this server can act for, the first one first. */
    List<String> all();

    /** Principals from {@code WIRE_BEARER_TOKENS_FILE}: no or an unknown token is refused. */
    record Bearer(BearerTokens tokens) implements Principals {
        public Bearer {
            Objects.requireNonNull(tokens, "tokens");
        }

        @Override
        public Optional<String> principalOf(String authorization) {
            return tokens.principalOf(authorization);
        }

        @Override
        public List<String> all() {
            return tokens.principals();
        }
    }

    /** Every request is this principal, whatever it sends; an {@code Authorization} header is ignored. */
    record Fixed(String principal) implements Principals {
        public Fixed {
            if (principal == null || principal.isBlank()) {
                throw new IllegalArgumentException("a fixed principal needs a name");
            }
        }

        @Override
        public Optional<String> principalOf(String authorization) {
            return Optional.of(principal);
        }

        @Override
        public List<String> all() {
            return List.of(principal);
        }
    }
}
