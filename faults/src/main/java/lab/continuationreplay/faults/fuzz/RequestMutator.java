package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded mutations of a valid request frame (pure: the same seed and bases give the same bytes). Structural
 * mutations edit the JSON tree; byte-level ones (deep nesting, invalid UTF-8, raw NUL, huge numbers, duplicate keys)
 * put a placeholder string into the tree and splice raw bytes in its place after serialising.
 */
public final class RequestMutator {
    /** Every kind, in the order of the figures. */
    public static final List<String> KINDS = List.of("type-swap", "missing-field", "extra-field", "long-string",
            "deep-nesting", "invalid-utf8", "nul-bytes", "huge-number", "duplicate-key", "meta-envelope",
            "jsonrpc-version", "id-type", "notification", "batch", "not-json", "method");
    /** Long strings are at least this many bytes. */
    public static final int LONG_STRING_BYTES = 1 << 20;
    public static final int DEEP_NESTING = 10_000;
    private static final String PLACEHOLDER = "\uE000fuzz-placeholder\uE000";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Paths whose change makes a continuation certainly invalid (a prefix match counts). */
    private static final List<String> ESSENTIAL = List.of("/jsonrpc", "/method", "/id", "/params/name",
            "/params/arguments/operation_id", "/params/arguments/title", "/params/requestState", "/params/inputResponses",
            "/params/_meta/io.modelcontextprotocol~1protocolVersion");

    private final Random random;

    public RequestMutator(Random random) {
        this.random = random;
    }

    /** A mutation of {@code base} (a whole JSON-RPC frame) touching {@code operationId}. Long strings come rarely. */
    public FuzzCase mutate(ObjectNode base, String operationId) {
        int roll = random.nextInt(1000);
        String kind = roll < 4 ? "long-string" : KINDS.get(pickNotLong());
        return mutate(kind, base, operationId);
    }

    private int pickNotLong() {
        int index;
        do {
            index = random.nextInt(KINDS.size());
        } while (KINDS.get(index).equals("long-string"));
        return index;
    }

    public FuzzCase mutate(String kind, ObjectNode base, String operationId) {
        FuzzCase fuzzCase = mutateAnyId(kind, base, operationId);
        // Another id (a string, a 1 MiB string, the last of two ids) is still a valid request: the id is no binding,
        // a continuation must even use a new one. A frame with a changed id that is still a request (FrameClass) is
        // therefore not certainly invalid; this only relaxes, it never makes a case certainly invalid.
        boolean idChanged = fuzzCase.variant().startsWith("/id ") || fuzzCase.variant().equals("/id");
        if (idChanged && fuzzCase.mustFail() && !kind.equals("id-type")
                && FrameClass.of(fuzzCase.bytes()).kind() == FrameClass.Kind.REQUEST) {
            return new FuzzCase(fuzzCase.kind(), fuzzCase.variant(), fuzzCase.bytes(), fuzzCase.operationId(), false);
        }
        return fuzzCase;
    }

    private FuzzCase mutateAnyId(String kind, ObjectNode base, String operationId) {
        ObjectNode frame = base.deepCopy();
        return switch (kind) {
            case "type-swap" -> typeSwap(kind, frame, operationId);
            case "missing-field" -> missingField(kind, frame, operationId);
            case "extra-field" -> extraField(kind, frame, operationId);
            case "long-string" -> longString(kind, frame, operationId);
            case "deep-nesting" -> deepNesting(kind, frame, operationId);
            case "invalid-utf8" -> invalidUtf8(kind, frame, operationId);
            case "nul-bytes" -> nulBytes(kind, frame, operationId);
            case "huge-number" -> hugeNumber(kind, frame, operationId);
            case "duplicate-key" -> duplicateKey(kind, frame, operationId);
            case "meta-envelope" -> metaEnvelope(kind, frame, operationId);
            case "jsonrpc-version" -> jsonrpcVersion(kind, frame, operationId);
            case "id-type" -> idType(kind, frame, operationId);
            case "notification" -> notification(kind, frame, operationId);
            case "batch" -> batch(kind, frame, operationId);
            case "not-json" -> notJson(kind, frame, operationId);
            case "method" -> otherMethod(kind, frame, operationId);
            default -> throw new IllegalArgumentException("unknown mutation kind " + kind);
        };
    }

    private FuzzCase typeSwap(String kind, ObjectNode frame, String operationId) {
        Slot slot = anySlot(frame);
        JsonNode value = otherType(slot.get());
        slot.set(value);
        return text(kind, slot.path() + " -> " + value.getNodeType(), frame, operationId, essential(slot.path()));
    }

    private FuzzCase missingField(String kind, ObjectNode frame, String operationId) {
        Slot slot = anyMember(frame);
        slot.remove();
        boolean must = essential(slot.path()) || slot.path().equals("/params") || slot.path().equals("/params/arguments")
                || slot.path().equals("/params/_meta");
        return text(kind, slot.path(), frame, operationId, must);
    }

    private FuzzCase extraField(String kind, ObjectNode frame, String operationId) {
        List<ObjectNode> objects = new ArrayList<>();
        collectObjects(frame, objects);
        ObjectNode target = objects.get(random.nextInt(objects.size()));
        target.set("x-fuzz-" + random.nextInt(1000), randomValue(2));
        return text(kind, "an unknown member", frame, operationId, false);
    }

    private FuzzCase longString(String kind, ObjectNode frame, String operationId) {
        Slot slot = anySlot(frame);
        int length = LONG_STRING_BYTES + random.nextInt(LONG_STRING_BYTES / 4);
        slot.set(JSON.textNode("L".repeat(length)));
        return text(kind, slot.path() + " " + length + " bytes", frame, operationId, essential(slot.path()) && !slot.path().equals("/params/_meta"));
    }

    private FuzzCase deepNesting(String kind, ObjectNode frame, String operationId) {
        Slot slot = anySlot(frame);
        boolean arrays = random.nextBoolean();
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < DEEP_NESTING; i++) {
            deep.append(arrays ? "[" : "{\"d\":");
        }
        deep.append("0");
        for (int i = 0; i < DEEP_NESTING; i++) {
            deep.append(arrays ? "]" : "}");
        }
        return spliced(kind, slot.path() + (arrays ? " arrays" : " objects") + " depth " + DEEP_NESTING, frame, slot,
                deep.toString().getBytes(StandardCharsets.US_ASCII), operationId, false);
    }

    private FuzzCase invalidUtf8(String kind, ObjectNode frame, String operationId) {
        Slot slot = anyString(frame);
        byte[][] bad = {{(byte) 0xff}, {(byte) 0xc3, 0x28}, {(byte) 0x80}, {(byte) 0xc0, (byte) 0xaf},
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xe2, (byte) 0x82}};
        int which = random.nextInt(bad.length);
        String original = slot.get().textValue();
        byte[] value = concat(quote(original.substring(0, original.length() / 2)), bad[which],
                quote(original.substring(original.length() / 2)));
        value = concat(new byte[] {'"'}, value, new byte[] {'"'});
        // Not UTF-8, so not JSON text (RFC 8259 §8.1): no server may apply it, wherever the bad bytes sit.
        return spliced(kind, slot.path() + " sequence " + which, frame, slot, value, operationId, true);
    }

    private FuzzCase nulBytes(String kind, ObjectNode frame, String operationId) {
        Slot slot = anyString(frame);
        String original = slot.get().textValue();
        if (random.nextBoolean()) {
            slot.set(JSON.textNode(original + "\u0000"));
            // An escaped NUL is a valid character: only a changed binding (arguments, state, method) must fail.
            boolean binding = essential(slot.path()) && !slot.path().startsWith("/params/inputResponses") && !slot.path().equals("/id");
            return text(kind, slot.path() + " escaped \\u0000", frame, operationId, binding);
        }
        byte[] value = concat(new byte[] {'"'}, quote(original), new byte[] {0}, new byte[] {'"'});
        return spliced(kind, slot.path() + " raw NUL byte", frame, slot, value, operationId, true);
    }

    private FuzzCase hugeNumber(String kind, ObjectNode frame, String operationId) {
        Slot slot = random.nextInt(3) == 0 ? new Slot(frame, "id", "/id") : anySlot(frame);
        String[] numbers = {"1e400", "-1e400", "18446744073709551616", "123456789012345678901234567890", "1e-400",
            "9007199254740993", "-0", "1.0"};
        String number = numbers[random.nextInt(numbers.length)];
        // An id of -0 is still a valid id; a huge number anywhere essential breaks the request.
        return spliced(kind, slot.path() + " = " + number, frame, slot, number.getBytes(StandardCharsets.US_ASCII),
                operationId, false);
    }

    private FuzzCase duplicateKey(String kind, ObjectNode frame, String operationId) {
        Slot slot = anyMember(frame);
        ObjectNode parent = (ObjectNode) slot.parent();
        boolean before = random.nextBoolean();
        String key = slot.key();
        JsonNode decoy = otherType(slot.get());
        // Rebuild the parent with the key twice: the decoy first (the real value wins) or last (the decoy wins).
        ObjectNode rebuilt = JSON.objectNode();
        parent.fields().forEachRemaining(e -> {
            if (e.getKey().equals(key) && before) {
                rebuilt.set(PLACEHOLDER, JSON.textNode(PLACEHOLDER));
            }
            rebuilt.set(e.getKey(), e.getValue());
            if (e.getKey().equals(key) && !before) {
                rebuilt.set(PLACEHOLDER, JSON.textNode(PLACEHOLDER));
            }
        });
        parent.removeAll();
        parent.setAll(rebuilt);
        String member = "\"" + PLACEHOLDER + "\":\"" + PLACEHOLDER + "\"";
        String replacement = JSON.textNode(key) + ":" + decoy;
        byte[] bytes = replaceOnce(serialise(frame), member.getBytes(StandardCharsets.UTF_8),
                replacement.getBytes(StandardCharsets.UTF_8));
        return new FuzzCase(kind, slot.path() + (before ? " decoy first" : " decoy last"), bytes, operationId,
                !before && essential(slot.path()));
    }

    private FuzzCase metaEnvelope(String kind, ObjectNode frame, String operationId) {
        ObjectNode params = frame.path("params").isObject() ? (ObjectNode) frame.get("params") : frame.putObject("params");
        ObjectNode meta = params.path("_meta").isObject() ? (ObjectNode) params.get("_meta") : params.putObject("_meta");
        String variant;
        switch (random.nextInt(9)) {
            case 0 -> { params.remove("_meta"); variant = "no _meta"; }
            case 1 -> { meta.remove("io.modelcontextprotocol/protocolVersion"); variant = "no protocol version"; }
            case 2 -> { meta.put("io.modelcontextprotocol/protocolVersion", "2025-06-18"); variant = "version 2025-06-18"; }
            case 3 -> { meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-29"); variant = "version 2026-07-29"; }
            case 4 -> { meta.put("io.modelcontextprotocol/protocolVersion", 20260728); variant = "version as a number"; }
            case 5 -> { params.put("_meta", "2026-07-28"); variant = "_meta a string"; }
            case 6 -> { params.set("_meta", JSON.arrayNode().add(meta)); variant = "_meta an array"; }
            case 7 -> { params.set("_meta", JSON.nullNode()); variant = "_meta null"; }
            default -> { params.put("_meta", 7); variant = "_meta a number"; }
        }
        return text(kind, variant, frame, operationId, true);
    }

    private FuzzCase jsonrpcVersion(String kind, ObjectNode frame, String operationId) {
        String variant;
        switch (random.nextInt(6)) {
            case 0 -> { frame.put("jsonrpc", "1.0"); variant = "1.0"; }
            case 1 -> { frame.put("jsonrpc", "2"); variant = "\"2\""; }
            case 2 -> { frame.put("jsonrpc", 2.0); variant = "2.0 as a number"; }
            case 3 -> { frame.remove("jsonrpc"); variant = "missing"; }
            case 4 -> { frame.putNull("jsonrpc"); variant = "null"; }
            default -> { frame.put("jsonrpc", "2.0 "); variant = "\"2.0 \""; }
        }
        return text(kind, variant, frame, operationId, true);
    }

    private FuzzCase idType(String kind, ObjectNode frame, String operationId) {
        long n = Math.abs(random.nextInt());
        String variant;
        boolean valid = false;
        switch (random.nextInt(12)) {
            case 0 -> { frame.put("id", "fz-ü-" + n + "-\u2028"); variant = "unicode string"; valid = true; }
            case 1 -> { frame.put("id", ""); variant = "empty string"; valid = true; }
            case 2 -> { frame.put("id", -n - 1); variant = "negative"; valid = true; }
            case 3 -> { frame.put("id", 0); variant = "zero"; valid = true; }
            case 4 -> { frame.put("id", 9007199254740991L); variant = "2^53-1"; valid = true; }
            case 5 -> { frame.put("id", n + 0.5); variant = "fraction"; }
            case 6 -> { frame.put("id", random.nextBoolean()); variant = "boolean"; }
            case 7 -> { frame.putNull("id"); variant = "null"; }
            case 8 -> { frame.putObject("id").put("n", n); variant = "object"; }
            case 9 -> { frame.putArray("id").add(n); variant = "array"; }
            case 10 -> { frame.put("id", "x".repeat(10_000) + n); variant = "10,000-character string"; valid = true; }
            default -> { frame.put("id", new java.math.BigInteger("18446744073709551616").add(java.math.BigInteger.valueOf(n))); variant = "above 2^64"; }
        }
        return text(kind, variant, frame, operationId, !valid);
    }

    private FuzzCase notification(String kind, ObjectNode frame, String operationId) {
        String variant;
        switch (random.nextInt(4)) {
            case 0 -> { frame.remove("id"); variant = "request without id"; }
            case 1 -> {
                frame.remove("id");
                frame.put("method", "notifications/cancelled");
                ObjectNode params = frame.path("params").isObject() ? (ObjectNode) frame.get("params") : frame.putObject("params");
                params.put("requestId", random.nextInt(100));
                variant = "notifications/cancelled";
            }
            case 2 -> { frame.remove("id"); frame.put("method", "notifications/initialized"); variant = "notifications/initialized"; }
            default -> { frame.remove("id"); frame.put("method", "notifications/x-fuzz"); variant = "unknown notification"; }
        }
        return text(kind, variant, frame, operationId, true);
    }

    private FuzzCase batch(String kind, ObjectNode frame, String operationId) {
        ArrayNode batch = JSON.arrayNode();
        String variant;
        switch (random.nextInt(4)) {
            case 0 -> { batch.add(frame); variant = "one request"; }
            case 1 -> { batch.add(frame); batch.add(frame.deepCopy().put("id", "batch-second")); variant = "two requests"; }
            case 2 -> variant = "empty";
            default -> { batch.add(1).add("x"); variant = "scalars"; }
        }
        return new FuzzCase(kind, variant, serialise(batch), operationId, true);
    }

    private FuzzCase notJson(String kind, ObjectNode frame, String operationId) {
        byte[] text = serialise(frame);
        String variant;
        byte[] bytes;
        switch (random.nextInt(5)) {
            case 0 -> { bytes = java.util.Arrays.copyOf(text, Math.max(1, random.nextInt(text.length))); variant = "truncated"; }
            case 1 -> {
                bytes = new byte[1 + random.nextInt(200)];
                random.nextBytes(bytes);
                for (int i = 0; i < bytes.length; i++) {
                    if (bytes[i] == '\n' || bytes[i] == '\r') {
                        bytes[i] = ' ';
                    }
                }
                variant = "random bytes";
            }
            case 2 -> { bytes = "   ".getBytes(StandardCharsets.US_ASCII); variant = "blank"; }
            case 3 -> { bytes = concat(text, "}".getBytes(StandardCharsets.US_ASCII)); variant = "trailing brace"; }
            default -> { bytes = ("{'jsonrpc':'2.0','id':1,'method':'tools/list'}").getBytes(StandardCharsets.US_ASCII); variant = "single quotes"; }
        }
        return new FuzzCase(kind, variant, bytes, operationId, true);
    }

    private FuzzCase otherMethod(String kind, ObjectNode frame, String operationId) {
        String[] methods = {"tools/cal", "TOOLS/CALL", "", "tools/call/", "initialize", "x-fuzz/unknown", "tools/list\u0000"};
        String method = methods[random.nextInt(methods.length)];
        frame.put("method", method);
        return text(kind, JSON.textNode(method).toString(), frame, operationId, true);
    }

    // ---- places in the tree ----

    /** A place in the tree: a member of an object or an element of an array. */
    record Slot(JsonNode parent, Object keyOrIndex, String path) {
        JsonNode get() {
            return parent.isObject() ? parent.get((String) keyOrIndex) : parent.get((Integer) keyOrIndex);
        }

        void set(JsonNode value) {
            if (parent.isObject()) {
                ((ObjectNode) parent).set((String) keyOrIndex, value);
            } else {
                ((ArrayNode) parent).set((Integer) keyOrIndex, value);
            }
        }

        void remove() {
            if (parent.isObject()) {
                ((ObjectNode) parent).remove((String) keyOrIndex);
            } else {
                ((ArrayNode) parent).remove((int) (Integer) keyOrIndex);
            }
        }

        String key() {
            return (String) keyOrIndex;
        }
    }

    private Slot anySlot(ObjectNode frame) {
        List<Slot> slots = new ArrayList<>();
        collect(frame, "", slots);
        return slots.get(random.nextInt(slots.size()));
    }

    private Slot anyMember(ObjectNode frame) {
        List<Slot> slots = new ArrayList<>();
        collect(frame, "", slots);
        slots.removeIf(s -> !s.parent().isObject());
        return slots.get(random.nextInt(slots.size()));
    }

    private Slot anyString(ObjectNode frame) {
        List<Slot> slots = new ArrayList<>();
        collect(frame, "", slots);
        slots.removeIf(s -> !s.get().isTextual());
        return slots.get(random.nextInt(slots.size()));
    }

    private static void collect(JsonNode node, String path, List<Slot> into) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String child = path + "/" + name.replace("~", "~0").replace("/", "~1");
                into.add(new Slot(node, name, child));
                collect(node.get(name), child, into);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                into.add(new Slot(node, i, path + "/" + i));
                collect(node.get(i), path + "/" + i, into);
            }
        }
    }

    private static void collectObjects(JsonNode node, List<ObjectNode> into) {
        if (node.isObject()) {
            into.add((ObjectNode) node);
        }
        node.elements().forEachRemaining(child -> collectObjects(child, into));
    }

    private static boolean essential(String path) {
        for (String prefix : ESSENTIAL) {
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                return true;
            }
        }
        return false;
    }

    // ---- values ----

    private JsonNode otherType(JsonNode current) {
        while (true) {
            JsonNode candidate = randomValue(1);
            if (candidate.getNodeType() != current.getNodeType()) {
                return candidate;
            }
        }
    }

    private JsonNode randomValue(int depth) {
        return switch (random.nextInt(depth > 0 ? 8 : 6)) {
            case 0 -> JSON.nullNode();
            case 1 -> JSON.booleanNode(random.nextBoolean());
            case 2 -> JSON.numberNode(random.nextInt(2000) - 1000);
            case 3 -> JSON.numberNode(random.nextDouble() * 1e6);
            case 4 -> JSON.textNode("fuzz-" + Integer.toHexString(random.nextInt()));
            case 5 -> JSON.textNode("");
            case 6 -> {
                ArrayNode array = JSON.arrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    array.add(randomValue(depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = JSON.objectNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    object.set("k" + random.nextInt(100), randomValue(depth - 1));
                }
                yield object;
            }
        };
    }

    // ---- bytes ----

    private static FuzzCase text(String kind, String variant, JsonNode frame, String operationId, boolean mustFail) {
        return new FuzzCase(kind, variant, serialise(frame), operationId, mustFail);
    }

    private static FuzzCase spliced(String kind, String variant, ObjectNode frame, Slot slot, byte[] raw, String operationId,
            boolean mustFail) {
        slot.set(JSON.textNode(PLACEHOLDER));
        byte[] bytes = replaceOnce(serialise(frame), ("\"" + PLACEHOLDER + "\"").getBytes(StandardCharsets.UTF_8), raw);
        return new FuzzCase(kind, variant, bytes, operationId, mustFail || (essential(slot.path()) && !slot.path().equals("/id")));
    }

    static byte[] serialise(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The JSON string body of {@code text} (escaped, without quotes), as UTF-8. */
    private static byte[] quote(String text) {
        String quoted = JSON.textNode(text).toString();
        return quoted.substring(1, quoted.length() - 1).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] replaceOnce(byte[] haystack, byte[] needle, byte[] replacement) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(haystack.length + replacement.length);
            out.write(haystack, 0, i);
            out.write(replacement, 0, replacement.length);
            out.write(haystack, i + needle.length, haystack.length - i - needle.length);
            return out.toByteArray();
        }
        throw new IllegalStateException("placeholder not found");
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }
}
