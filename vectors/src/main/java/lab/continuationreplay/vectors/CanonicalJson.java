package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Comparator;

/**
 * Canonical JSON text of the fingerprint contract (seed spec §2.3): code-point key order, safe integers only,
 * minimal escapes with lowercase <code>\\u00xx</code>, no whitespace, unpaired surrogates rejected.
 * The TypeScript twin is {@code ts-fixture/src/canonical-json.ts}; both produce the same text and messages.
 * The writing itself (one pass, UTF-8 into a reused buffer, paths spelled out only for an error) is
 * {@link CanonicalWriter}.
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
        CanonicalWriter writer = CanonicalWriter.acquire();
        try {
            writer.value(value, path, null, 0);
            return writer.text();
        } finally {
            writer.release();
        }
    }

    public static int compareCodePoints(String a, String b) {
        int shorter = Math.min(a.length(), b.length());
        int i = 0;
        while (i < shorter && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (i == shorter) {
            return a.length() == b.length() ? 0 : a.length() < b.length() ? -1 : 1;
        }
        char ca = a.charAt(i);
        char cb = b.charAt(i);
        if (ca < Character.MIN_SURROGATE && cb < Character.MIN_SURROGATE) {
            // Below U+D800 a code unit is its own code point, and a pair cannot straddle i (a[i] is no low surrogate).
            return ca < cb ? -1 : 1;
        }
        // Resume code point by code point where the code point holding i starts: a high surrogate just before i
        // (equal in both) starts it; a high surrogate is never the second half of a pair, so that is a boundary.
        int from = i > 0 && Character.isHighSurrogate(a.charAt(i - 1)) ? i - 1 : i;
        return compareCodePointsFrom(a, b, from);
    }

    private static int compareCodePointsFrom(String a, String b, int from) {
        int i = from;
        int j = from;
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

    private static void appendUnicodeEscape(StringBuilder out, char c) {
        String hex = Integer.toHexString(c);
        out.append("\\u");
        for (int pad = hex.length(); pad < 4; pad++) {
            out.append('0');
        }
        out.append(hex);
    }
}
