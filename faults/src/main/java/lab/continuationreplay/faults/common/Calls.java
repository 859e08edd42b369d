package lab.continuationreplay.faults.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.continuationreplay.core.client.CaseProcess;
import lab.continuationreplay.core.client.Reply;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;

/** The tool calls the fault experiments make, on a plain {@link ServerProcess}. */
public final class Calls {
    private Calls() {}

    public static ObjectNode arguments(String operationId, String title, String mode) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", operationId).put("title", title).put("mode", mode);
    }

    /** Round one; returns the requestState, or throws if the server did not ask for input. */
    public static String roundOne(ServerProcess server, ObjectNode arguments) throws TransportFailure {
        Reply reply = new Reply(server.callTool(CaseProcess.CREATE, arguments, null, null));
        if (!reply.inputRequired() || reply.requestState() == null) {
            throw new IllegalStateException("round one did not ask for input: " + reply.raw());
        }
        return reply.requestState();
    }

    /** A continuation whose requestState may be any JSON value (a string normally). */
    public static Reply continuation(ServerProcess server, String tool, ObjectNode arguments, JsonNode requestState, String body)
            throws TransportFailure {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("name", tool);
        params.set("arguments", arguments);
        params.set("inputResponses", CaseProcess.accepted(body));
        params.set("requestState", requestState);
        return new Reply(server.request("tools/call", params));
    }

    public static Reply status(ServerProcess server, String operationId) throws TransportFailure {
        return new Reply(server.callTool(CaseProcess.STATUS,
                JsonNodeFactory.instance.objectNode().put("operation_id", operationId), null, null));
    }

    /** The refusal both SDKs give a requestState that does not open: -32602 with data.reason invalid_request_state. */
    public static boolean isStateRefusal(Reply reply) {
        JsonNode error = reply.raw().path("error");
        return error.path("code").asInt() == -32602 && "invalid_request_state".equals(error.path("data").path("reason").asText(null));
    }

    /** A success: a result that is not an {@code isError} result. */
    public static boolean isSuccess(Reply reply) {
        return reply.raw().has("result") && !reply.result().path("isError").asBoolean(false);
    }
}
