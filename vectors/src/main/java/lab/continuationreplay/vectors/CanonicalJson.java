package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Canonical JSON text of the fingerprint contract (seed spec §2.3): code-point key order, safe integers only,
 * minimal escapes with lowercase <code>\\u00xx</code>, no whitespace, unpaired surrogates rejected.
 * The TypeScript twin is {@code ts-fixture/src/canonical-json.ts}; both produce the same text and messages.
 */
public final class CanonicalJson {
    public static final int MAX_DEPTH = 1000;
    public static final String NOT_AN_INTEGER = "number must be an integer in the interoperable safe range";
    public static final String OUTSIDE_SAFE_RANGE = "integer is outside the interoperable safe range";
    public static final String UNPAIRED_SURROGATE = "unpaired UTF-16 surrogate is not valid Unicode";
    public static final String UNPAIRED_SURROGATE_IN_KEY = "object key with an unpaired UTF-16 surrogate is not valid Unicode";

    static final BigDecimal MAX_SAFE_INTEGER = BigDecimal.valueOf(9007199254740991L);

    /** Unicode scalar value order; {@link String#compareTo} uses UTF-16 code units and misplaces U+E000..U+FFFF. */
    public static final Comparator<String> CODE_POINT_ORDER = CanonicalJson::compareCodePoints;

    private CanonicalJson() {}

    public static String canonical(JsonNode value) {
        return canonical(value, "$");
    }

    public static String canonical(JsonNode value, String path) {
        StringBuilder out = new StringBuilder();
        emit(value, path, 0, out);
        return out.toString();
    }

    public static int compareCodePoints(String a, String b) {
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

    /** A key as it appears in an error path; unpaired surrogates and C0 controls are shown escaped. */
    public static String pathSegment(String key) {
        StringBuilder out = new StringBuilder(key.length() + 1).append('.');
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                out.append(c).append(key.charAt(++i));
            } else if (c < 0x20 || Character.isSurrogate(c)) {
                appendUnicodeEscape(out, c);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Throws unless every UTF-16 surrogate in {@code text} is part of a valid pair. */
    public static void requireScalarValues(String text, String path) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
                continue;
            }
            throw new CanonicalJsonException(path + ": " + UNPAIRED_SURROGATE);
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
            members.sort(Map.Entry.comparingByKey(CODE_POINT_ORDER));
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> member : members) {
                String memberPath = path + pathSegment(member.getKey());
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
        if (depth + 1 > MAX_DEPTH) {
            throw new CanonicalJsonException(path + ": nesting deeper than " + MAX_DEPTH + " levels");
        }
        return depth + 1;
    }

    private static String integerText(JsonNode number, String path) {
        BigDecimal exact;
        if (number.isDouble() || number.isFloat()) {
            double d = number.doubleValue();
            if (!Double.isFinite(d)) {
                throw new CanonicalJsonException(path + ": " + NOT_AN_INTEGER);
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
            throw new CanonicalJsonException(path + ": " + NOT_AN_INTEGER);
        }
        if (exact.abs().compareTo(MAX_SAFE_INTEGER) > 0) {
            throw new CanonicalJsonException(path + ": " + OUTSIDE_SAFE_RANGE);
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
}
