package lab.continuationreplay.matrix.vectors;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded generator of fingerprint CLI input lines as raw JSON text: nested objects and arrays, astral, private-use
 * and control characters, integers near ±2^53 in several exact spellings, empty, integer-like and {@code __proto__}
 * keys, random escaping and whitespace. About one line in eight is made invalid on purpose (a fraction, an unsafe
 * integer, a lone surrogate, a wrong member), so that agreement on rejections is tested too.
 */
final class RandomRequestLines {
    private static final long MAX_SAFE = 9007199254740991L;
    private static final String[] SPECIAL_KEYS = {"", "__proto__", "10", "2", "0", "-1", "01", "constructor",
        "toString", "hasOwnProperty", "B", "a", "\u00e9", "\ue000", "\ud800\udc00", "\uf8ff", "\ud83d\ude00", "title"};
    private static final String[] INVALID_NUMBERS = {"1.5", "-0.25", "9007199254740992", "-9007199254740992",
        "1e400", "1.0000000000000000001", "9007199254740993", "12345678901234567890", "1e-7", "2.5E+0"};

    private final SplittableRandom random;
    private int serial;

    RandomRequestLines(long seed) {
        this.random = new SplittableRandom(seed);
    }

    List<String> lines(int count) {
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lines.add(line());
        }
        return lines;
    }

    private String line() {
        String name = "r" + serial++;
        boolean invalid = random.nextInt(8) == 0;
        int flaw = invalid ? random.nextInt(9) : -1;
        StringBuilder request = new StringBuilder("{");
        List<String> members = new ArrayList<>();
        members.add(member("principal", flaw == 0 ? "17" : random.nextInt(6) == 0 ? "null" : string(12)));
        if (flaw != 1) {
            members.add(member("tool_id", string(10)));
        }
        members.add(member("tool_version", random.nextBoolean() ? "\"1\"" : string(4)));
        String arguments = switch (flaw) {
            case 2 -> "[" + value(2) + "]";
            case 3 -> objectWith(number(INVALID_NUMBERS[random.nextInt(INVALID_NUMBERS.length)]));
            case 4 -> objectWith("\"lone " + (random.nextBoolean() ? "\\ud800" : "\\udfff") + " surrogate\"");
            case 5 -> "{\"x" + (random.nextBoolean() ? "\\udbff" : "\\udc00") + "\":1}";
            default -> object(3);
        };
        members.add(member("arguments", arguments));
        if (random.nextInt(4) != 0) {
            members.add(member("continuation_state", flaw == 6 ? "1.5" : random.nextBoolean() ? string(16) : value(2)));
        }
        if (random.nextInt(4) != 0) {
            members.add(member("input_responses", flaw == 7 ? objectWith("\"\\ud83d\"") : inputResponses()));
        }
        if (flaw == 8) {
            members.add(member("extra", "true"));
        }
        java.util.Collections.shuffle(members, new java.util.Random(random.nextLong()));
        request.append(String.join("," + ws(), members)).append('}');
        return random.nextInt(3) == 0 ? request.toString()
                : "{" + ws() + "\"name\":" + ws() + "\"" + name + "\"," + ws() + "\"request\":" + request + ws() + "}";
    }

    private String member(String key, String value) {
        return ws() + "\"" + key + "\"" + ws() + ":" + ws() + value;
    }

    private String objectWith(String badValue) {
        String good = object(1);
        String bad = "\"bad\":" + badValue;
        return good.equals("{}") ? "{" + bad + "}" : "{" + bad + "," + good.substring(1);
    }

    private String inputResponses() {
        return "{\"body\":{\"action\":" + (random.nextBoolean() ? "\"accept\"" : string(6))
                + ",\"content\":{\"body\":" + string(20) + "}}" + (random.nextBoolean() ? "" : ",\"_meta\":null") + "}";
    }

    private String value(int depth) {
        int kind = random.nextInt(depth <= 0 ? 4 : 6);
        return switch (kind) {
            case 0 -> string(12);
            case 1 -> integer();
            case 2 -> random.nextBoolean() ? "true" : "false";
            case 3 -> "null";
            case 4 -> object(depth - 1);
            default -> array(depth - 1);
        };
    }

    private String object(int depth) {
        int size = random.nextInt(5);
        List<String> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String key = random.nextInt(3) == 0 ? SPECIAL_KEYS[random.nextInt(SPECIAL_KEYS.length)] : raw(6);
            members.add(ws() + escaped(key) + ws() + ":" + ws() + value(depth));
        }
        return "{" + String.join(",", members) + ws() + "}";
    }

    private String array(int depth) {
        int size = random.nextInt(4);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            items.add(ws() + value(depth));
        }
        return "[" + String.join(",", items) + ws() + "]";
    }

    /** A safe integer, often near ±2^53, written in one of several exact spellings. */
    private String integer() {
        long n = switch (random.nextInt(4)) {
            case 0 -> MAX_SAFE - random.nextInt(1000);
            case 1 -> -MAX_SAFE + random.nextInt(1000);
            case 2 -> random.nextInt(2001) - 1000;
            default -> random.nextLong(-MAX_SAFE, MAX_SAFE + 1);
        };
        String plain = Long.toString(n);
        return switch (random.nextInt(5)) {
            case 0 -> plain + ".0";
            case 1 -> plain + ".000";
            case 2 -> n == 0 ? "-0" : plain;
            case 3 -> scientific(n);
            default -> plain;
        };
    }

    /** d.ddd…e+k with exactly the digits of n, e.g. 1234 -> 1.234e3 or 12.34E+2. */
    private String scientific(long n) {
        String digits = Long.toString(Math.abs(n));
        int point = 1 + random.nextInt(digits.length());
        String mantissa = digits.substring(0, point) + (point < digits.length() ? "." + digits.substring(point) : "");
        String sign = n < 0 ? "-" : "";
        return sign + mantissa + (random.nextBoolean() ? "e" : "E+") + (digits.length() - point);
    }

    private String number(String literal) {
        return literal;
    }

    private String string(int maxLength) {
        return escaped(raw(maxLength));
    }

    /** Random text of Unicode scalar values drawn from deliberately awkward ranges. */
    private String raw(int maxLength) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int cp = switch (random.nextInt(9)) {
                case 0 -> random.nextInt(0x20);
                case 1 -> 0x7f;
                case 2 -> 0xe000 + random.nextInt(0x1900);
                case 3 -> 0x10000 + random.nextInt(0x100000);
                case 4 -> 0x1f600 + random.nextInt(0x50);
                case 5 -> new int[] {0x2028, 0x2029, 0x301, 0xa0, 0xfeff, 0xfffd, 0xffff}[random.nextInt(7)];
                case 6 -> new int[] {'"', '\\', '/'}[random.nextInt(3)];
                case 7 -> 0xa0 + random.nextInt(0xd7ff - 0xa0);
                default -> 0x20 + random.nextInt(0x5f);
            };
            text.appendCodePoint(cp);
        }
        return text.toString();
    }

    /** A JSON string literal; each character is written raw or as a \\u escape, at random. */
    private String escaped(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                // A pair is written whole, raw or escaped: half of it raw would not survive UTF-8 encoding.
                char low = text.charAt(++i);
                out.append(random.nextBoolean() ? "" + c + low : unicode(c) + unicode(low));
                continue;
            }
            boolean mustEscape = c < 0x20 || c == '"' || c == '\\';
            if (mustEscape || random.nextInt(5) == 0) {
                if (c == '"' || c == '\\') {
                    out.append(random.nextBoolean() ? "\\" + c : unicode(c));
                } else if (c == '\n' && random.nextBoolean()) {
                    out.append("\\n");
                } else {
                    out.append(unicode(c));
                }
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private String unicode(char c) {
        String hex = String.format("%04x", (int) c);
        return "\\u" + (random.nextBoolean() ? hex : hex.toUpperCase());
    }

    private String ws() {
        return switch (random.nextInt(6)) {
            case 0 -> " ";
            case 1 -> "\t";
            case 2 -> " \r ";
            default -> "";
        };
    }
}
