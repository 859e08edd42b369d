package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The tampered states p5 sends in place of a real one: a character changed in the middle, the state cut short, and,
 * when the state decodes (JSON, base64 or base64url of JSON, or a JWT-like {@code header.payload.signature}), the
 * same document with one field changed, encoded again the same way but without a valid MAC. A server that protects
 * its state refuses each; one that commits any of them lets a client forge its state.
 */
public final class StateTampering {
    /** One tampered state and how it was made. */
    public record Variant(String name, String state) {}

    private StateTampering() {}

    public static List<Variant> variants(String state) {
        List<Variant> variants = new ArrayList<>();
        if (state.isEmpty()) {
            return variants;
        }
        int middle = state.length() / 2;
        variants.add(new Variant("character-changed", state.substring(0, middle) + other(state.charAt(middle))
                + state.substring(middle + 1)));
        if (state.length() > 1) {
            variants.add(new Variant("truncated", state.substring(0, Math.max(1, state.length() * 3 / 4))));
        }
        String forged = decodedFieldChanged(state);
        if (forged != null && !forged.equals(state)) {
            variants.add(new Variant("decoded-field-changed", forged));
        }
        return variants;
    }

    /** Another character of the same kind, so the state keeps its alphabet (a base64url state stays base64url). */
    static char other(char c) {
        if (c >= 'a' && c <= 'z') {
            return c == 'z' ? 'a' : (char) (c + 1);
        }
        if (c >= 'A' && c <= 'Z') {
            return c == 'Z' ? 'A' : (char) (c + 1);
        }
        if (c >= '0' && c <= '9') {
            return c == '9' ? '0' : (char) (c + 1);
        }
        return c == 'A' ? 'B' : 'A';
    }

    /** The state decoded, one field changed, encoded again the same way without a MAC; null when it does not decode. */
    static String decodedFieldChanged(String state) {
        JsonNode plain = json(state);
        if (plain instanceof ObjectNode object && changeOneField(object)) {
            return object.toString();
        }
        String[] parts = state.split("\\.", -1);
        if (parts.length == 3) {
            JsonNode payload = json(decode(parts[1], Base64.getUrlDecoder()));
            if (payload instanceof ObjectNode object && changeOneField(object)) {
                // the header as it was, the payload changed, no signature
                return parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(object)) + ".";
            }
        }
        for (boolean url : new boolean[] {true, false}) {
            JsonNode decoded = json(decode(state, url ? Base64.getUrlDecoder() : Base64.getDecoder()));
            if (decoded instanceof ObjectNode object && changeOneField(object)) {
                Base64.Encoder encoder = url ? Base64.getUrlEncoder() : Base64.getEncoder();
                return (state.endsWith("=") ? encoder : encoder.withoutPadding()).encodeToString(bytes(object));
            }
        }
        return null;
    }

    /** Changes the first string, number or boolean field it finds, depth first; false when there is none. */
    private static boolean changeOneField(ObjectNode object) {
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            if (value.isTextual()) {
                object.put(field.getKey(), value.textValue() + "x");
                return true;
            }
            if (value.isIntegralNumber()) {
                object.put(field.getKey(), value.longValue() + 1);
                return true;
            }
            if (value.isBoolean()) {
                object.put(field.getKey(), !value.booleanValue());
                return true;
            }
            if (value instanceof ObjectNode inner && changeOneField(inner)) {
                return true;
            }
        }
        return false;
    }

    private static String decode(String text, Base64.Decoder decoder) {
        try {
            return new String(decoder.decode(text), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    private static JsonNode json(String text) {
        if (text == null || text.isBlank() || text.strip().charAt(0) != '{') {
            return null;
        }
        try {
            return ExactJson.parse(text);
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }

    private static byte[] bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }
}
