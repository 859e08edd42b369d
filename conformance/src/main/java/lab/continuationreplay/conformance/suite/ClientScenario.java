package lab.continuationreplay.conformance.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import lab.continuationreplay.history.Format;

/**
 * The scored client scenarios the lab's client drivers (docs/client-drivers.md) can play, each as the steps an
 * application would take against the suite's mock server. The suite only watches: it judges what the SDK client put
 * on the wire while the driver did this. Scenarios that need a step the drivers do not have (reading a resource,
 * getting a prompt) are not served and are reported as such.
 */
public enum ClientScenario {
    /** SEP-2322: each tool answers input_required; the automatic call must echo the state, or send none if none came. */
    MRTR_REQUEST_STATE("sep-2322-client-request-state") {
        @Override
        void steps(ArrayNode steps, JsonNode context) {
            call(steps, "test_mrtr_echo_state", confirmed());
            call(steps, "test_mrtr_no_state", confirmed());
            call(steps, "test_mrtr_unrelated", null);
            call(steps, "test_mrtr_no_result_type", null);
        }
    },
    TOOLS_CALL("tools_call") {
        @Override
        void steps(ArrayNode steps, JsonNode context) {
            steps.addObject().put("op", "list_tools").put("connection", CONNECTION);
            ObjectNode call = call(steps, "add_numbers", null);
            ((ObjectNode) call.get("arguments")).put("a", 5).put("b", 3);
        }
    },
    /** Per-request _meta and the MCP-Protocol-Version header: any requests will do, so discovery and a tool list. */
    REQUEST_METADATA("request-metadata") {
        @Override
        void steps(ArrayNode steps, JsonNode context) {
            steps.addObject().put("op", "list_tools").put("connection", CONNECTION);
        }
    },
    /** The client lists a tool whose schema has a network $ref and must not fetch it. */
    JSON_SCHEMA_REF_NO_DEREF("json-schema-ref-no-deref") {
        @Override
        void steps(ArrayNode steps, JsonNode context) {
            steps.addObject().put("op", "list_tools").put("connection", CONNECTION);
        }
    },
    /**
     * SEP-2243: the client lists the tools, whose schemas mark parameters {@code x-mcp-header}, then makes the calls
     * the suite names in its context ({@code toolCalls}); the SDK must mirror the marked arguments into headers.
     */
    CUSTOM_HEADERS("http-custom-headers") {
        @Override
        void steps(ArrayNode steps, JsonNode context) {
            steps.addObject().put("op", "list_tools").put("connection", CONNECTION);
            for (JsonNode toolCall : context.path("toolCalls")) {
                ObjectNode call = call(steps, toolCall.path("name").asText(), null);
                if (toolCall.path("arguments").isObject()) {
                    call.set("arguments", toolCall.path("arguments").deepCopy());
                }
            }
        }
    };

    static final String CONNECTION = "a";
    static final String SERVER = "suite";
    /** The variable the driver reads its bearer token from; the suite's mock servers ignore the header. */
    public static final String TOKEN_VARIABLE = "LAB_CONFORMANCE_TOKEN";

    private final String scenario;

    ClientScenario(String scenario) {
        this.scenario = scenario;
    }

    public String scenario() {
        return scenario;
    }

    /** The steps between connect and close; {@code context} is what the suite passed for the scenario, or empty. */
    abstract void steps(ArrayNode steps, JsonNode context);

    public static Optional<ClientScenario> of(String scenario) {
        for (ClientScenario served : values()) {
            if (served.scenario.equals(scenario)) {
                return Optional.of(served);
            }
        }
        return Optional.empty();
    }

    /** The whole client-script/1 for the suite's server at {@code url}: connect, this scenario's steps, close. */
    public ObjectNode script(String url, long requestTimeoutMs) {
        return script(url, requestTimeoutMs, JsonNodeFactory.instance.objectNode());
    }

    /** As {@link #script(String, long)}, with the context the suite passes ({@code MCP_CONFORMANCE_CONTEXT}). */
    public ObjectNode script(String url, long requestTimeoutMs, JsonNode context) {
        ObjectNode script = JsonNodeFactory.instance.objectNode();
        script.put("format", Format.CLIENT_SCRIPT.tag());
        script.putObject("servers").putObject(SERVER).put("url", url).put("bearer_token_env", TOKEN_VARIABLE);
        script.put("request_timeout_ms", requestTimeoutMs);
        script.put("version_mode", "pin");
        ArrayNode steps = script.putArray("steps");
        steps.addObject().put("op", "connect").put("connection", CONNECTION).put("server", SERVER);
        steps(steps, context);
        steps.addObject().put("op", "close").put("connection", CONNECTION);
        return script;
    }

    private static ObjectNode call(ArrayNode steps, String tool, ObjectNode answer) {
        ObjectNode call = steps.addObject().put("op", "call").put("connection", CONNECTION).put("tool", tool);
        call.putObject("arguments");
        if (answer != null) {
            call.set("answer", answer);
        }
        return call;
    }

    private static ObjectNode confirmed() {
        return JsonNodeFactory.instance.objectNode().put("confirmed", true);
    }
}
