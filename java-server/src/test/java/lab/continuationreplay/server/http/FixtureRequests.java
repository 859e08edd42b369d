package lab.continuationreplay.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;

/** JSON-RPC requests to the conformance profile's fixtures, as the official suite sends them, and generic answers. */
final class FixtureRequests {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The envelope of every request: the suite declares elicitation, sampling and roots. */
    static final String CAPABILITIES = "{\"elicitation\":{},\"sampling\":{},\"roots\":{\"listChanged\":true}}";

    private final HttpServerProcess server;
    private final String token;
    private int nextId = 1;

    FixtureRequests(HttpServerProcess server, String token) {
        this.server = server;
        this.token = token;
    }

    /** {@code method} with {@code params} (no {@code _meta}; it is added); the whole response, status and body. */
    HttpResponse<String> send(String method, String name, ObjectNode params) throws Exception {
        ObjectNode meta = params.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.set("io.modelcontextprotocol/clientCapabilities", JSON.readTree(CAPABILITIES));
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "it").put("version", "1");
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", nextId++);
        request.put("method", method);
        request.set("params", params);
        return server.send(server.post(token, method, name, JSON.writeValueAsString(request)));
    }

    /** The JSON-RPC response object. */
    JsonNode rpc(String method, String name, ObjectNode params) throws Exception {
        return JSON.readTree(send(method, name, params).body());
    }

    static ObjectNode toolCall(String tool) {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.putObject("arguments");
        return params;
    }

    static ObjectNode promptGet(String prompt) {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", prompt);
        return params;
    }

    /** A valid answer to every input request: each required form field filled by its type, a sample, a root. */
    static ObjectNode answers(JsonNode inputRequests) {
        ObjectNode responses = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = inputRequests.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> request = it.next();
            ObjectNode answer = responses.putObject(request.getKey());
            switch (request.getValue().path("method").asText()) {
                case "elicitation/create" -> {
                    answer.put("action", "accept");
                    ObjectNode content = answer.putObject("content");
                    JsonNode properties = request.getValue().path("params").path("requestedSchema").path("properties");
                    properties.fields().forEachRemaining(field -> {
                        if (field.getValue().path("type").asText().equals("boolean")) {
                            content.put(field.getKey(), true);
                        } else {
                            content.put(field.getKey(), "it-" + field.getKey());
                        }
                    });
                }
                case "sampling/createMessage" -> {
                    answer.put("role", "assistant");
                    answer.putObject("content").put("type", "text").put("text", "sampled");
                    answer.put("model", "it-model");
                    answer.put("stopReason", "endTurn");
                }
                case "roots/list" -> answer.putArray("roots").addObject().put("uri", "file:///it/root").put("name", "it");
                default -> throw new AssertionError("unknown input request " + request.getValue());
            }
        }
        return responses;
    }

    /** {@code params} with the answers and state of {@code inputRequired} added: the next round of the same call. */
    static ObjectNode continuation(ObjectNode params, JsonNode inputRequired) {
        ObjectNode next = params.deepCopy();
        next.set("inputResponses", answers(inputRequired.path("inputRequests")));
        next.set("requestState", inputRequired.path("requestState"));
        return next;
    }
}
