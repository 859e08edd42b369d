package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One line of the records file ({@code client-record/1}): what one step sent and what the SDK gave back.
 * {@code transport} ({@code stdio} or {@code http}) is a connect step's only; other records have no such member.
 */
public record ClientRecord(
        StepId step,
        Op op,
        String connection,
        String transport,
        String api,
        JsonNode sent,
        Outcome outcome,
        JsonNode result,
        Thrown threw,
        String savedState,
        long startedMs,
        long elapsedMs) {

    public static final String FORMAT = "client-record/1";
    public static final String CLIENT = "java";

    public ClientRecord withTransport(String transport) {
        return new ClientRecord(step, op, connection, transport, api, sent, outcome, result, threw, savedState, startedMs,
                elapsedMs);
    }

    public ObjectNode toJson(String sdkVersion) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("format", FORMAT);
        node.put("client", CLIENT);
        node.put("sdk_version", sdkVersion);
        node.set("step", step.toJson());
        node.put("op", op.wireName());
        node.put("connection", connection);
        if (transport != null) {
            node.put("transport", transport);
        }
        node.put("api", api);
        node.set("sent", sent);
        node.put("outcome", outcome.wireName());
        node.set("result", result);
        node.set("threw", threw == null ? null : threw.toJson());
        node.put("saved_state", savedState);
        node.put("started_ms", startedMs);
        node.put("elapsed_ms", elapsedMs);
        return node;
    }
}
