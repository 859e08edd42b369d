package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Writes canonical JSON (seed spec §2.3) as UTF-8 straight into a growable byte buffer, in one pass over the tree:
 * validation, escaping and encoding together. The JSON path of a value is not built while writing; the writer keeps
 * the keys and indices of the current branch and spells the path out only when it throws. One writer per thread is
 * reused ({@link #acquire()}), so a fingerprint allocates little beyond its result.
 *
 * <p>The checks, their order and their messages are those of {@link CanonicalJson}: members in code-point key order,
 * a key checked before its value, a container's depth checked before its members.
 */
final class CanonicalWriter {
    private static final long MAX_SAFE = 9007199254740991L;
    private static final double MAX_SAFE_DOUBLE = 9007199254740991.0;
    /** A buffer grown beyond this by one large value is dropped after use instead of being kept by the thread. */
    private static final int RETAINED_BYTES = 1 << 20;
    /** Characters of a string encoded per step (see {@link #string(String, int)}). */
    private static final int CHUNK = 4096;
    /** Slots of the member-name cache (a power of two), and the longest encoded name it keeps. */
    private static final int KEY_SLOTS = 64;
    private static final int KEY_BYTES = 24;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final int[] BELOW_0800 = belowU0800();
    /** Stores an int into a byte array at any offset, little-endian: one store per encoded character. */
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ThreadLocal<CanonicalWriter> PER_THREAD = ThreadLocal.withInitial(CanonicalWriter::new);
    private static final java.util.Comparator<Map.Entry<String, JsonNode>> BY_KEY =
            (a, b) -> CanonicalJson.compareCodePoints(a.getKey(), b.getKey());

    private byte[] buf = new byte[512];
    private final char[] chars = new char[CHUNK];
    private int len;
    private boolean inUse;
    // Member names as written (quotes included), by the identity of the key's String: a tree repeats its member names
    // in every element of an array of objects, and Jackson's parser hands out one String per distinct name (its
    // symbol table), as do the literals a tree built in code uses. Slot s holds cachedKeys[s], keyLengths[s] bytes at
    // keyBytes[s * KEY_BYTES]. Emptied on release, so the thread does not keep a tree's names.
    private final String[] cachedKeys = new String[KEY_SLOTS];
    private final int[] keyLengths = new int[KEY_SLOTS];
    private final byte[] keyBytes = new byte[KEY_SLOTS * KEY_BYTES];

    // The branch being written: at level l (0 = the root value) keys[l] names the member, or, when null, indices[l]
    // the array item. The root's own path is rootPrefix + rootName (rootName may be null).
    private String[] keys = new String[16];
    /** Per level, a reused array for an object's members while they are ordered and written. */
    @SuppressWarnings("rawtypes")
    private Map.Entry[][] scratch = new Map.Entry[16][];
    private int[] indices = new int[16];
    private String rootPrefix = "$";
    private String rootName;
    private int baseDepth;

    private CanonicalWriter() {}

    /** This thread's writer, emptied; a fresh one if this thread's is already in use further up the stack. */
    static CanonicalWriter acquire() {
        CanonicalWriter writer = PER_THREAD.get();
        if (writer.inUse) {
            writer = new CanonicalWriter();
        }
        writer.inUse = true;
        writer.len = 0;
        return writer;
    }

    /** Hands the writer back to its thread; a buffer grown very large is dropped rather than kept. */
    void release() {
        inUse = false;
        if (buf.length > RETAINED_BYTES) {
            buf = new byte[512];
        }
        if (scratch.length > 64) {
            scratch = new Map.Entry[16][]; // a deep tree once: do not keep its levels
        }

        Arrays.fill(keys, null);
        Arrays.fill(cachedKeys, null);
    }

    byte[] buffer() {
        return buf;
    }

    int length() {
        return len;
    }

    void reset() {
        len = 0;
    }

    String text() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    /** The canonical text of {@code value}; errors name paths under {@code prefix + name} (name may be null). */
    void value(JsonNode value, String prefix, String name, int depth) {
        rootPrefix = prefix;
        rootName = name;
        baseDepth = depth;
        write(value, 0);
    }

    /** A string as a canonical JSON string literal; an unpaired surrogate is reported at {@code prefix + name}. */
    void string(String text, String prefix, String name) {
        rootPrefix = prefix;
        rootName = name;
        baseDepth = 0;
        string(text, 0);
    }

    /** Characters copied as they are (ASCII only: member names and punctuation of the fixed payload). */
    void ascii(String text) {
        int n = text.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) text.charAt(i);
        }
    }

    /** The UTF-8 bytes of {@code text}, unescaped and unchecked (the opaque field's name in its HMAC message). */
    void utf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
    }

    void rawByte(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    /** {@code bytes} as a JSON string of lowercase hex digits. */
    void hexString(byte[] bytes) {
        ensure(bytes.length * 2 + 2);
        buf[len++] = '"';
        len = hex(bytes, buf, len);
        buf[len++] = '"';
    }

    /** Writes lowercase hex of {@code bytes} into {@code out} at {@code at}; returns the position after it. */
    static int hex(byte[] bytes, byte[] out, int at) {
        for (byte b : bytes) {
            out[at++] = HEX[(b >> 4) & 0xf];
            out[at++] = HEX[b & 0xf];
        }
        return at;
    }

    static String hex(byte[] bytes) {
        byte[] out = new byte[bytes.length * 2];
        hex(bytes, out, 0);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    private void write(JsonNode value, int level) {
        if (value == null) {
            raw(NULL);
            return;
        }
        // Jackson's own node classes first, by exact class: the JIT then knows the receiver, so the calls below are
        // direct and inlined instead of a megamorphic getNodeType() and a virtual call per node. Anything else
        // (numbers other than int and long, subclasses, non-JSON nodes) goes through getNodeType() as it always did.
        Class<?> kind = value.getClass();
        if (kind == TextNode.class) {
            string(value.textValue(), level);
            return;
        }
        if (kind == ObjectNode.class) {
            object(value, level);
            return;
        }
        if (kind == ArrayNode.class) {
            array(value, level);
            return;
        }
        if (kind == IntNode.class) {
            integer(value.intValue());
            return;
        }
        if (kind == LongNode.class) {
            safeInteger(value.longValue(), level);
            return;
        }
        JsonNodeType type = value.getNodeType();
        switch (type) {
            case NULL -> raw(NULL);
            case BOOLEAN -> raw(value.booleanValue() ? TRUE : FALSE);
            case NUMBER -> number(value, level);
            case STRING -> string(value.textValue(), level);
            case ARRAY -> array(value, level);
            case OBJECT -> object(value, level);
            default -> throw new CanonicalJsonException(path(level) + ": unsupported JSON value " + type.name().toLowerCase());
        }
    }

    private int enter(int level) {
        int inner = baseDepth + level + 1;
        if (inner > CanonicalJson.MAX_DEPTH) {
            throw new CanonicalJsonException(path(level) + ": nesting deeper than " + CanonicalJson.MAX_DEPTH + " levels");
        }
        if (level >= keys.length) {
            int size = Math.max(level + 1, keys.length * 2);
            keys = Arrays.copyOf(keys, size);
            indices = Arrays.copyOf(indices, size);
        }
        return inner;
    }

    private void array(JsonNode value, int level) {
        enter(level);
        int n = value.size();
        keys[level] = null;
        rawByte('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                rawByte(',');
            }
            indices[level] = i;
            write(value.get(i), level + 1);
        }
        rawByte(']');
    }

    @SuppressWarnings("unchecked")
    private void object(JsonNode value, int level) {
        enter(level);
        int n = value.size();
        // The members into this level's scratch array, in one pass that also notes whether they are already in
        // code-point order (canonical input, or a tree built in order): then there is nothing to sort.
        Map.Entry<String, JsonNode>[] members = scratch(level, n);
        try {
            members(value, level, members);
        } finally {
            Arrays.fill(members, 0, n, null); // the thread keeps its arrays, not the tree it wrote
        }
    }

    private void members(JsonNode value, int level, Map.Entry<String, JsonNode>[] members) {
        int count = 0;
        boolean ordered = true;
        for (Map.Entry<String, JsonNode> member : value.properties()) {
            if (ordered && count > 0 && CanonicalJson.compareCodePoints(members[count - 1].getKey(), member.getKey()) > 0) {
                ordered = false;
            }
            members[count++] = member;
        }
        if (!ordered) {
            sort(members, count);
        }
        rawByte('{');
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                rawByte(',');
            }
            String key = members[i].getKey();
            keys[level] = key;
            key(key, level + 1);
            rawByte(':');
            write(members[i].getValue(), level + 1);
        }
        rawByte('}');
        keys[level] = null;
    }

    /**
     * Members into code-point key order. Keys are distinct, so any correct sort gives the same order; a few members
     * (the common object) are sorted in place by insertion, which costs less than setting up {@link Arrays#sort}.
     */
    private static void sort(Map.Entry<String, JsonNode>[] members, int count) {
        if (count > 16) {
            Arrays.sort(members, 0, count, BY_KEY);
            return;
        }
        for (int i = 1; i < count; i++) {
            Map.Entry<String, JsonNode> member = members[i];
            String key = member.getKey();
            int j = i - 1;
            while (j >= 0 && CanonicalJson.compareCodePoints(members[j].getKey(), key) > 0) {
                members[j + 1] = members[j];
                j--;
            }
            members[j + 1] = member;
        }
    }

    /** A member name: copied from the cache when this String was written before, else written and remembered. */
    private void key(String key, int level) {
        int slot = key.hashCode() & (KEY_SLOTS - 1);
        if (cachedKeys[slot] == key) {
            int n = keyLengths[slot];
            ensure(n);
            System.arraycopy(keyBytes, slot * KEY_BYTES, buf, len, n);
            len += n;
            return;
        }
        int start = len;
        string(key, level); // an invalid name throws here, before anything is remembered
        int n = len - start;
        if (n <= KEY_BYTES) {
            System.arraycopy(buf, start, keyBytes, slot * KEY_BYTES, n);
            keyLengths[slot] = n;
            cachedKeys[slot] = key;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Map.Entry<String, JsonNode>[] scratch(int level, int size) {
        if (level >= scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(level + 1, scratch.length * 2));
        }
        Map.Entry[] members = scratch[level];
        if (members == null || members.length < size) {
            members = new Map.Entry[Math.max(size, 8)];
            scratch[level] = members;
        }
        return members;
    }

    private void number(JsonNode number, int level) {
        switch (number.numberType()) {
            case INT, LONG -> safeInteger(number.longValue(), level);
            case FLOAT, DOUBLE -> {
                double d = number.doubleValue();
                if (!Double.isFinite(d) || d != Math.rint(d)) {
                    throw new CanonicalJsonException(path(level) + ": " + CanonicalJson.NOT_AN_INTEGER);
                }
                if (Math.abs(d) > MAX_SAFE_DOUBLE) {
                    throw new CanonicalJsonException(path(level) + ": " + CanonicalJson.OUTSIDE_SAFE_RANGE);
                }
                integer((long) d); // -0.0 becomes 0
            }
            default -> ascii(exactIntegerText(number.decimalValue(), level));
        }
    }

    private void safeInteger(long n, int level) {
        if (n > MAX_SAFE || n < -MAX_SAFE) {
            throw new CanonicalJsonException(path(level) + ": " + CanonicalJson.OUTSIDE_SAFE_RANGE);
        }
        integer(n);
    }

    /** BigInteger and BigDecimal values: exact, so a 2^53 or a 1.0000000000000000001 is judged unrounded. */
    private String exactIntegerText(BigDecimal exact, int level) {
        if (exact.signum() == 0) {
            return "0";
        }
        // scale() <= 0 first: stripTrailingZeros on 1e999999999 is cheap, but avoid it when the answer is known.
        if (exact.scale() > 0 && exact.stripTrailingZeros().scale() > 0) {
            throw new CanonicalJsonException(path(level) + ": " + CanonicalJson.NOT_AN_INTEGER);
        }
        if (exact.abs().compareTo(CanonicalJson.MAX_SAFE_INTEGER) > 0) {
            throw new CanonicalJsonException(path(level) + ": " + CanonicalJson.OUTSIDE_SAFE_RANGE);
        }
        return exact.toBigIntegerExact().toString();
    }

    /** A safe integer in base 10 (|n| < 2^53, so negation cannot overflow). */
    private void integer(long n) {
        ensure(20);
        if (n < 0) {
            buf[len++] = '-';
            n = -n;
        }
        if (n < 10) {
            buf[len++] = (byte) ('0' + n);
            return;
        }
        int digits = 0;
        for (long rest = n; rest > 0; rest /= 10) {
            digits++;
        }
        int at = len + digits;
        len = at;
        do {
            buf[--at] = (byte) ('0' + n % 10);
            n /= 10;
        } while (n > 0);
    }

    /**
     * A string literal: only {@code " \ \b \f \n \r \t} and {@code \\u00xx} (lowercase) escaped, everything else as
     * UTF-8; an unpaired surrogate is an error at {@code level}. Works through the text in chunks, each copied to a
     * char array and given room for its worst case (six bytes a character) up front, so the loop only indexes.
     */
    private void string(String text, int level) {
        int n = text.length();
        char[] cs = chars;
        if (n <= CHUNK) {
            text.getChars(0, n, cs, 0);
            ensure(n * 6 + 2);
            byte[] b = buf;
            int at = len;
            b[at++] = '"';
            at = encode(cs, n, b, at);
            if (at < 0) {
                throw unpairedSurrogate(level);
            }
            b[at++] = '"';
            len = at;
            return;
        }
        ensure(1);
        buf[len++] = '"';
        int from = 0;
        while (from < n) {
            int count = Math.min(n - from, CHUNK);
            text.getChars(from, from + count, cs, 0);
            if (from + count < n && Character.isHighSurrogate(cs[count - 1])) {
                count--; // keep a pair together: its high half starts the next chunk
            }
            ensure(count * 6);
            int at = encode(cs, count, buf, len);
            if (at < 0) {
                throw unpairedSurrogate(level);
            }
            len = at;
            from += count;
        }
        ensure(1);
        buf[len++] = '"';
    }

    /**
     * Escapes and encodes {@code cs[0, count)} into {@code b} at {@code at}; -1 for an unpaired surrogate. Needs room
     * for six bytes a character: a character below U+0800 is stored as one four-byte word from {@link #BELOW_0800}
     * (its bytes, then their count in the top byte, which the next character overwrites), so it costs one load, one
     * store and no branch on its kind. Text with an escape or a non-ASCII letter every few characters (the benchmark's
     * 64 KiB arguments) made the previous loop, which branched on each character's kind and scanned for ASCII runs,
     * mispredict at almost each of them; this one branches only on U+0800 and above, and for the rare
     * {@code \\u00xx} controls.
     */
    private static int encode(char[] cs, int count, byte[] b, int at) {
        int[] table = BELOW_0800;
        for (int i = 0; i < count; i++) {
            int c = cs[i];
            if (c < 0x800) {
                int word = table[c];
                if (word == 0) {
                    at = unicodeEscape(b, at, c);
                } else {
                    WORD.set(b, at, word);
                    at += word >>> 24;
                }
            } else if (c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE) {
                WORD.set(b, at, (0xe0 | c >> 12) | (0x80 | (c >> 6) & 0x3f) << 8 | (0x80 | c & 0x3f) << 16);
                at += 3;
            } else if (c <= Character.MAX_HIGH_SURROGATE && i + 1 < count && Character.isLowSurrogate(cs[i + 1])) {
                int cp = Character.toCodePoint((char) c, cs[++i]);
                b[at++] = (byte) (0xf0 | (cp >> 18));
                b[at++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                b[at++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                b[at++] = (byte) (0x80 | (cp & 0x3f));
            } else {
                return -1;
            }
        }
        return at;
    }

    /**
     * Per character below U+0800, its canonical bytes and their count as a little-endian word (see
     * {@link #encode}): ASCII as itself, the seven short escapes as two bytes, two-byte UTF-8 from U+0080; 0 for the
     * controls written as {@code \\u00xx}.
     */
    private static int[] belowU0800() {
        int[] table = new int[0x800];
        for (int c = 0; c < 0x800; c++) {
            int escaped = switch (c) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '\b' -> 'b';
                case '\f' -> 'f';
                case '\n' -> 'n';
                case '\r' -> 'r';
                case '\t' -> 't';
                default -> 0;
            };
            if (escaped != 0) {
                table[c] = '\\' | escaped << 8 | 2 << 24;
            } else if (c < 0x20) {
                table[c] = 0;
            } else if (c < 0x80) {
                table[c] = c | 1 << 24;
            } else {
                table[c] = (0xc0 | c >> 6) | (0x80 | c & 0x3f) << 8 | 2 << 24;
            }
        }
        return table;
    }

    private CanonicalJsonException unpairedSurrogate(int level) {
        return new CanonicalJsonException(path(level) + ": " + CanonicalJson.UNPAIRED_SURROGATE);
    }

    /** A C0 control without a short escape, as {@code \\u00xx} with lowercase hex. */
    private static int unicodeEscape(byte[] b, int at, int c) {
        b[at++] = '\\';
        b[at++] = 'u';
        b[at++] = '0';
        b[at++] = '0';
        b[at++] = HEX[(c >> 4) & 0xf];
        b[at++] = HEX[c & 0xf];
        return at;
    }

    private void raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(len + more, buf.length * 2));
        }
    }

    /** The {@code $}-style path of the value at {@code level} of the branch being written; only for messages. */
    private String path(int level) {
        StringBuilder out = new StringBuilder(rootPrefix);
        if (rootName != null) {
            out.append(rootName);
        }
        for (int l = 0; l < level; l++) {
            if (keys[l] != null) {
                out.append(CanonicalJson.pathSegment(keys[l]));
            } else {
                out.append('[').append(indices[l]).append(']');
            }
        }
        return out.toString();
    }
}
