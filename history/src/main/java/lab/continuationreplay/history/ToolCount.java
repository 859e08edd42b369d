package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The count an effect-counting tool answered ({@code lab probe --effects-tool}), read from its recorded reply: the
 * structured content's integer {@code count}, else its only integer member, else a first text content that is one
 * integer. The probe reads it so, and the checker reads the recorded reply again the same way.
 */
public final class ToolCount {
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");

    private ToolCount() {}

    /** The count, or null when the reply holds none (an error, an {@code isError} result, no integer). */
    public static Long of(JsonNode reply) {
        JsonNode result = reply == null ? null : reply.path("result");
        if (result == null || !result.isObject() || result.path("isError").asBoolean(false)) {
            return null;
        }
        JsonNode structured = result.path("structuredContent");
        if (structured.path("count").isIntegralNumber()) {
            return structured.path("count").longValue();
        }
        Long only = null;
        int integers = 0;
        Iterator<Map.Entry<String, JsonNode>> members = structured.fields();
        while (members.hasNext()) {
            JsonNode value = members.next().getValue();
            if (value.isIntegralNumber()) {
                integers++;
                only = value.longValue();
            }
        }
        if (integers == 1) {
            return only;
        }
        JsonNode text = result.path("content").path(0).path("text");
        return text.isTextual() && INTEGER.matcher(text.textValue().strip()).matches() ? Long.parseLong(text.textValue().strip()) : null;
    }
}
