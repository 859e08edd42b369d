package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The canonicaliser and fingerprint as they were before the single-pass writer (a StringBuilder, the JSON path of
 * every value built eagerly, BigDecimal for every number, the payload as an ObjectNode, a new Mac per HMAC), kept
 * verbatim as the oracle the differential properties compare against: same text, same digest, same message.
 */
final class ReferenceFingerprint {
    static final Comparator<String> REFERENCE_ORDER = ReferenceFingerprint::compareCodePoints;

    private final byte[] keyBytes;

    ReferenceFingerprint(byte[] keyBytes) {
        this.keyBytes = keyBytes.clone();
    }

    static String canonical(JsonNode value) {
        return canonical(value, "$");
    }

    static String canonical(JsonNode value, String path) {
        StringBuilder out = new StringBuilder();
        emit(value, path, 0, out);
        return out.toString();
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return ca < cb ? -1 : 1;
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        if (i >= a.length()) {
            return j >= b.length() ? 0 : -1;
        }
        return 1;
    }

    /** Throws unless every UTF-16 surrogate in {@code text} is part of a valid pair. */
    static void requireScalarValues(String text, String path) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
                continue;
            }
            throw new CanonicalJsonException(path + ": " + CanonicalJson.UNPAIRED_SURROGATE);
        }
    }

    private static void emit(JsonNode value, String path, int depth, StringBuilder out) {
        if (value == null || value.isNull()) {
            out.append("null");
        } else if (value.isBoolean()) {
            out.append(value.booleanValue() ? "true" : "false");
        } else if (value.isNumber()) {
            out.append(integerText(value, path));
        } else if (value.isTextual()) {
            String text = value.textValue();
            requireScalarValues(text, path);
            appendString(out, text);
        } else if (value.isArray()) {
            int inner = enter(depth, path);
            out.append('[');
            for (int i = 0; i < value.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                emit(value.get(i), path + "[" + i + "]", inner, out);
            }
            out.append(']');
        } else if (value.isObject()) {
            int inner = enter(depth, path);
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>(value.size());
            Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
            fields.forEachRemaining(members::add);
            members.sort(Map.Entry.comparingByKey(REFERENCE_ORDER));
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> member : members) {
                String memberPath = path + CanonicalJson.pathSegment(member.getKey());
                requireScalarValues(member.getKey(), memberPath);
                if (!first) {
                    out.append(',');
                }
                first = false;
                appendString(out, member.getKey());
                out.append(':');
                emit(member.getValue(), memberPath, inner, out);
            }
            out.append('}');
        } else {
            throw new CanonicalJsonException(path + ": unsupported JSON value " + value.getNodeType().name().toLowerCase());
        }
    }

    private static int enter(int depth, String path) {
        if (depth + 1 > CanonicalJson.MAX_DEPTH) {
            throw new CanonicalJsonException(path + ": nesting deeper than " + CanonicalJson.MAX_DEPTH + " levels");
        }
        return depth + 1;
    }

    private static String integerText(JsonNode number, String path) {
        BigDecimal exact;
        if (number.isDouble() || number.isFloat()) {
            double d = number.doubleValue();
            if (!Double.isFinite(d)) {
                throw new CanonicalJsonException(path + ": " + CanonicalJson.NOT_AN_INTEGER);
            }
            exact = new BigDecimal(d); // the binary value exactly, never a rounded decimal
        } else {
            exact = number.decimalValue();
        }
        if (exact.signum() == 0) {
            return "0";
        }
        // scale() <= 0 first: stripTrailingZeros on 1e999999999 is cheap, but avoid it when the answer is known.
        if (exact.scale() > 0 && exact.stripTrailingZeros().scale() > 0) {
            throw new CanonicalJsonException(path + ": " + CanonicalJson.NOT_AN_INTEGER);
        }
        if (exact.abs().compareTo(CanonicalJson.MAX_SAFE_INTEGER) > 0) {
            throw new CanonicalJsonException(path + ": " + CanonicalJson.OUTSIDE_SAFE_RANGE);
        }
        return exact.toBigIntegerExact().toString();
    }

    static void appendString(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        appendUnicodeEscape(out, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void appendUnicodeEscape(StringBuilder out, char c) {
        String hex = Integer.toHexString(c);
        out.append("\\u");
        for (int pad = hex.length(); pad < 4; pad++) {
            out.append('0');
        }
        out.append(hex);
    }

    String digest(LogicalRequest request) {
        // The opaque fields bind first, so both languages report the same error when several parts are invalid.
        String boundState = bindOpaqueField(RequestFingerprint.CONTINUATION_STATE, request.continuationState());
        String boundResponses = bindOpaqueField(RequestFingerprint.INPUT_RESPONSES, request.inputResponses());
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        payload.put("principal", request.principal());
        payload.put("tool_id", request.toolId());
        payload.put("tool_version", request.toolVersion());
        payload.set("arguments", request.arguments());
        payload.put(RequestFingerprint.CONTINUATION_STATE, boundState);
        payload.put(RequestFingerprint.INPUT_RESPONSES, boundResponses);
        return sha256Hex(canonical(payload).getBytes(StandardCharsets.UTF_8));
    }

    /** HMAC-SHA256(key, field || 0x00 || canonical(value)), lowercase hex. */
    String bindOpaqueField(String field, JsonNode value) {
        byte[] canonical = canonical(value, "$." + field).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream message = new ByteArrayOutputStream(field.length() + 1 + canonical.length);
        message.writeBytes(field.getBytes(StandardCharsets.UTF_8));
        message.write(0);
        message.writeBytes(canonical);
        return hmacHex(message.toByteArray());
    }

    private String hmacHex(byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keyBytes, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
