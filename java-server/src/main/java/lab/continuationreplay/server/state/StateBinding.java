package lab.continuationreplay.server.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * What a sealed state is bound to: the JSON-RPC method, the tool, the call's (normalised) arguments and the
 * configured principal. A token opens only for a request with the same four.
 */
public record StateBinding(String method, String tool, String argumentsDigest, String principal) {
    public StateBinding {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(argumentsDigest, "argumentsDigest");
        Objects.requireNonNull(principal, "principal");
    }

    public static StateBinding toolCall(String tool, JsonNode normalisedArguments, String principal) {
        return new StateBinding("tools/call", tool, digestOf(normalisedArguments), principal);
    }

    /** Any method that may return {@code input_required} ({@code prompts/get} too), bound the same way. */
    public static StateBinding of(String method, String name, JsonNode arguments, String principal) {
        return new StateBinding(method, name, digestOf(arguments), principal);
    }

    /** base64url(SHA-256(canonical JSON of the arguments)[0:16]): any changed argument changes it. */
    static String digestOf(JsonNode arguments) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(CanonicalJson.canonical(arguments).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(hash, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java 17 runtime", e);
        }
    }
}
