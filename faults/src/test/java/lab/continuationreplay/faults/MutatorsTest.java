package lab.continuationreplay.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import lab.continuationreplay.faults.fuzz.FrameClass;
import lab.continuationreplay.faults.fuzz.FuzzCase;
import lab.continuationreplay.faults.fuzz.RequestMutator;
import lab.continuationreplay.faults.token.TokenMutator;
import org.junit.jupiter.api.Test;

/** The seeded mutators are pure: the same seed gives the same mutations, and every mutation changes its input. */
class MutatorsTest {
    private static final String JAVA_TOKEN = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[80]);
    private static final String TS_TOKEN = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString("{\"p\":1}".getBytes(StandardCharsets.UTF_8))
            + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);

    private static List<String> tokenMutations(long seed) {
        TokenMutator mutator = new TokenMutator(new Random(seed));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String token = i % 2 == 0 ? JAVA_TOKEN : TS_TOKEN;
            out.add(mutator.bitFlip(token));
            out.add(mutator.byteMutation(token));
            out.add(mutator.truncation(token));
            out.add(mutator.extension(token));
            out.add(mutator.reEncoding(token));
        }
        return out;
    }

    @Test
    void tokenMutationsAreReproducibleAndNeverTheToken() {
        List<String> first = tokenMutations(7);
        assertEquals(first, tokenMutations(7));
        assertNotEquals(first, tokenMutations(8));
        for (int i = 0; i < first.size(); i++) {
            String original = (i / 5) % 2 == 0 ? JAVA_TOKEN : TS_TOKEN;
            assertNotEquals(original, first.get(i), "mutation " + i);
        }
    }

    /** The Rust SDK's rs1 tokens are mutated as the others: never the token, and the segment mutations keep rs1. */
    @Test
    void rustTokensAreMutatedWithTheirOwnPrefix() {
        String rust = "rs1." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[40]) + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);
        TokenMutator mutator = new TokenMutator(new Random(11));
        for (int i = 0; i < 100; i++) {
            String flipped = mutator.bitFlip(rust);
            assertTrue(flipped.startsWith("rs1.") && !flipped.equals(rust), flipped);
            assertNotEquals(rust, mutator.reEncoding(rust));
            assertNotEquals(rust, mutator.extension(rust));
        }
        assertThrows(IllegalArgumentException.class, () -> TokenMutator.segments("v2.abc"));
    }

    private static ObjectNode continuation() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode frame = json.objectNode().put("jsonrpc", "2.0").put("id", "fz-1").put("method", "tools/call");
        ObjectNode params = frame.putObject("params").put("name", "create_guarded_issue");
        params.putObject("arguments").put("operation_id", "op").put("title", "t").put("mode", "atomic");
        params.putObject("inputResponses").putObject("body").put("action", "accept").putObject("content").put("body", "b");
        params.put("requestState", JAVA_TOKEN);
        params.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        return frame;
    }

    @Test
    void requestMutationsAreReproducibleAndCoverEveryKind() {
        for (String kind : RequestMutator.KINDS) {
            for (int i = 0; i < 20; i++) {
                FuzzCase a = new RequestMutator(new Random(i)).mutate(kind, continuation(), "op");
                FuzzCase b = new RequestMutator(new Random(i)).mutate(kind, continuation(), "op");
                assertArrayEquals(a.bytes(), b.bytes(), kind + " " + i);
                assertEquals(a.variant(), b.variant());
                assertTrue(!new String(a.bytes(), StandardCharsets.ISO_8859_1).equals(continuation().toString()), kind);
            }
        }
    }

    @Test
    void theHardSizesAreReallyThere() {
        FuzzCase deep = new RequestMutator(new Random(1)).mutate("deep-nesting", continuation(), "op");
        assertTrue(deep.bytes().length > 2 * RequestMutator.DEEP_NESTING);
        FuzzCase longString = new RequestMutator(new Random(1)).mutate("long-string", continuation(), "op");
        assertTrue(longString.bytes().length >= RequestMutator.LONG_STRING_BYTES);
        FuzzCase utf8 = new RequestMutator(new Random(1)).mutate("invalid-utf8", continuation(), "op");
        assertEquals(FrameClass.Kind.MALFORMED, FrameClass.of(utf8.bytes()).kind());
        assertTrue(utf8.mustFail());
    }

    @Test
    void framesAreClassifiedAsJsonRpcAsks() {
        assertEquals(FrameClass.Kind.REQUEST, FrameClass.of(continuation().toString().getBytes(StandardCharsets.UTF_8)).kind());
        assertEquals(FrameClass.Kind.NOTIFICATION, FrameClass.of("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}".getBytes(StandardCharsets.UTF_8)).kind());
        for (String malformed : List.of("x", "[]", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}}", "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"x\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}", "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"x\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"_meta\":5}}")) {
            assertEquals(FrameClass.Kind.MALFORMED, FrameClass.of(malformed.getBytes(StandardCharsets.UTF_8)).kind(), malformed);
        }
        assertEquals("n:5", FrameClass.key(JsonNodeFactory.instance.numberNode(new java.math.BigDecimal("5.0"))));
    }
}
