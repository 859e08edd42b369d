package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.continuationreplay.vectors.ExactJson;

/** How proxy.json says things: the run's one-sentence summary, a frame in a few words, a result's text. */
final class ProxyWords {
    private ProxyWords() {}

    static String summary(ObjectNode document) {
        JsonNode loss = document.path("loss");
        JsonNode client = document.path("client");
        StringBuilder text = new StringBuilder("the reply completing call " + document.path("nth").asInt() + " ("
                + loss.path("tool").asText() + ", request " + loss.path("request_id") + ") was "
                + (loss.path("action").asText().equals("lost") || loss.path("action").asText().equals("held") ? "lost"
                : "lost with its connection") + "; ");
        if (!client.path("cancelled_after_ms").isNull()) {
            text.append("the client cancelled it after ").append(client.path("cancelled_after_ms").asLong()).append(" ms; ");
        }
        if (client.path("closed_after_ms").isNumber()) {
            text.append("the client closed the request's stream after ").append(client.path("closed_after_ms").asLong()).append(" ms; ");
        }
        switch (client.path("action").asText()) {
            case "gave-up" -> text.append("it called the tool no more");
            case "new-call" -> text.append(client.path("after_ms").asLong()).append(" ms later it started a new call");
            case "retried-same-state" -> text.append(client.path("after_ms").asLong()).append(" ms later it sent the same round again");
            case "retried-same-call" -> text.append(client.path("after_ms").asLong()).append(" ms later it sent the same call again");
            case "resumed-stream" -> text.append(client.path("after_ms").asLong()).append(" ms later it resumed the stream from event ")
                    .append(client.path("resumed_from").asText()).append(" (GET with Last-Event-ID)");
            default -> text.append(client.path("after_ms").asLong()).append(" ms later it sent the same state with other answers");
        }
        if (!client.path("action").asText().equals("gave-up")) {
            text.append(", which ").append(switch (client.path("outcome").asText()) {
                case "recovered" -> "recovered the lost result";
                case "different-result" -> "got a different result";
                case "refused" -> "was refused (" + client.path("outcome_detail").asText() + ")";
                default -> "got no reply";
            });
        }
        return text.toString();
    }

    static String describe(JsonNode frame) {
        if (frame == null) {
            return "(not a JSON object)";
        }
        if (frame.has("method")) {
            String name = frame.path("method").asText().equals("tools/call") ? " " + frame.path("params").path("name").asText()
                    + (frame.path("params").has("requestState") ? " (continuation)" : "") : "";
            return (frame.has("id") ? "request " + frame.get("id") + " " : "") + frame.path("method").asText() + name;
        }
        String kind = frame.has("error") ? "error " + frame.path("error").path("code").asText()
                : "input_required".equals(frame.path("result").path("resultType").asText()) ? "input_required" : "result";
        return "reply " + frame.get("id") + " " + kind;
    }

    static String text(JsonNode node) {
        try {
            String json = ExactJson.mapper().writeValueAsString(node);
            return json.length() > 300 ? json.substring(0, 300) + "…" : json;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
