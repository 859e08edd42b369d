package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.List;
import java.util.Map;

/** A step script built in a test, member by member as docs/client-drivers.md spells them. */
final class Script {
    static final String TOOL = "create_guarded_issue";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectNode root = NODES.objectNode();
    private final ObjectNode servers;
    private final ArrayNode steps;

    Script(Integer requestTimeoutMs) {
        root.put("format", "client-script/1");
        servers = root.putObject("servers");
        if (requestTimeoutMs == null) {
            root.putNull("request_timeout_ms");
        } else {
            root.put("request_timeout_ms", requestTimeoutMs);
        }
        root.put("version_mode", "pin");
        steps = root.putArray("steps");
    }

    Script server(String name, List<String> command, Map<String, String> env) {
        ObjectNode server = servers.putObject(name);
        command.forEach(server.putArray("command")::add);
        ObjectNode envNode = server.putObject("env");
        env.forEach(envNode::put);
        return this;
    }

    Script httpServer(String name, URI url, String tokenEnv) {
        servers.putObject(name).put("url", url.toString()).put("bearer_token_env", tokenEnv);
        return this;
    }

    Script connect(String connection, String server) {
        steps.add(step("connect", connection).put("server", server));
        return this;
    }

    Script listTools(String connection) {
        steps.add(step("list_tools", connection));
        return this;
    }

    Script call(String connection, ObjectNode arguments, String body) {
        ObjectNode step = step("call", connection).put("tool", TOOL);
        step.set("arguments", arguments);
        if (body != null) {
            step.putObject("answer").put("body", body);
        }
        steps.add(step);
        return this;
    }

    Script firstRound(String connection, ObjectNode arguments, String saveAs) {
        steps.add(firstRoundStep(connection, arguments, saveAs));
        return this;
    }

    Script continuation(String connection, ObjectNode arguments, String body, String state, String transform) {
        steps.add(continuationStep(connection, arguments, body, state, transform));
        return this;
    }

    Script status(String connection, String operationId) {
        steps.add(step("status", connection).put("operation_id", operationId));
        return this;
    }

    Script close(String connection) {
        steps.add(step("close", connection));
        return this;
    }

    ObjectNode json() {
        return root;
    }

    static ObjectNode arguments(String operationId, String title) {
        return NODES.objectNode().put("operation_id", operationId).put("title", title).put("mode", "atomic");
    }

    static ObjectNode firstRoundStep(String connection, ObjectNode arguments, String saveAs) {
        ObjectNode step = step("call_once", connection).put("tool", TOOL);
        step.set("arguments", arguments);
        step.put("save_state", saveAs);
        return step;
    }

    static ObjectNode continuationStep(String connection, ObjectNode arguments, String body, String state, String transform) {
        ObjectNode step = step("call_once", connection).put("tool", TOOL);
        step.set("arguments", arguments);
        ObjectNode answer = step.putObject("input_responses").putObject("body").put("action", "accept");
        answer.putObject("content").put("body", body);
        step.put("state", state);
        if (transform != null) {
            step.put("state_transform", transform);
        }
        return step;
    }

    private static ObjectNode step(String op, String connection) {
        return NODES.objectNode().put("op", op).put("connection", connection);
    }
}
