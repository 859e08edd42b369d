package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** How the verdicts read a check's exchanges: by role, the last one, whether a reply completed or refused, shown short. */
final class Replies {
    private Replies() {}

    static List<JsonNode> exchanges(List<JsonNode> own, String rolePrefix) {
        return own.stream().filter(e -> e.path("kind").asText().equals("exchange")
                && e.path("role").asText().startsWith(rolePrefix)).toList();
    }

    static JsonNode last(List<JsonNode> list) {
        return list.isEmpty() ? null : list.get(list.size() - 1);
    }

    static boolean complete(JsonNode exchange) {
        if (exchange == null || !exchange.path("reply").isObject()) {
            return false;
        }
        JsonNode result = exchange.path("reply").path("result");
        return result.isObject() && !result.path("isError").asBoolean(false)
                && !"input_required".equals(result.path("resultType").asText());
    }

    static boolean refused(JsonNode exchange) {
        return exchange != null && exchange.path("reply").isObject() && (exchange.path("reply").has("error")
                || exchange.path("reply").path("result").path("isError").asBoolean(false));
    }


    static String shown(JsonNode exchange) {
        if (exchange == null) {
            return "no exchange";
        }
        JsonNode reply = exchange.path("reply");
        if (!reply.isObject()) {
            return exchange.path("failure").asText("no reply");
        }
        if (reply.has("error")) {
            return "error " + reply.path("error").path("code").asInt() + " " + reply.path("error").path("message").asText();
        }
        JsonNode result = reply.path("result");
        if (result.path("isError").asBoolean(false)) {
            return "isError " + abbreviated(result.path("content").path(0).path("text").asText(result.toString()));
        }
        return abbreviated(result.path("resultType").asText("result") + " " + result.path("structuredContent"));
    }

    static String abbreviated(String text) {
        return text.length() > 160 ? text.substring(0, 160) + "..." : text;
    }
}
