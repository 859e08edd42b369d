package lab.continuationreplay.server.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** One request to a multi-round fixture: everything its sealed state is bound to. */
record FixtureCall(Method method, String name, JsonNode arguments, String principal) {
    /** The request methods that may answer {@code input_required}, as far as the fixtures use them. */
    enum Method {
        TOOLS_CALL("tools/call"),
        PROMPTS_GET("prompts/get");

        private final String wire;

        Method(String wire) {
            this.wire = wire;
        }

        String wire() {
            return wire;
        }
    }

    FixtureCall {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(principal, "principal");
    }
}
