package lab.continuationreplay.faults;

import lab.continuationreplay.faults.run.FaultExperiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.faults.common.HttpCall;
import lab.continuationreplay.faults.fuzz.HttpFuzzCase;
import lab.continuationreplay.faults.fuzz.HttpFuzzClass;
import lab.continuationreplay.faults.fuzz.HttpRequestMutator;
import lab.continuationreplay.faults.proxy.RelayPlan;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

/** The HTTP fuzzer's mutations and the cutting proxy's plan: pure functions of their seed. */
class HttpRequestMutatorTest {
    private static final String TOKEN = "tok-" + "x".repeat(40);

    private static HttpRequestMutator.Base base(boolean continuation) {
        ObjectNode arguments = ToolClient.arguments("op-1", "a title", "atomic");
        ObjectNode frame = ExactJson.mapper().createObjectNode().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call");
        frame.set("params", HttpCall.createParams(arguments, continuation ? "v1.state" : null, "an answer"));
        return new HttpRequestMutator.Base("127.0.0.1:4000", "Bearer " + TOKEN, continuation, "op-1", frame);
    }

    @Test
    void theSameSeedMakesTheSameRequestsByteForByte() {
        for (HttpFuzzClass kind : HttpFuzzClass.values()) {
            for (long seed = 0; seed < 20; seed++) {
                HttpFuzzCase a = new HttpRequestMutator(new Random(seed)).mutate(kind, base(seed % 2 == 0));
                HttpFuzzCase b = new HttpRequestMutator(new Random(seed)).mutate(kind, base(seed % 2 == 0));
                assertEquals(a.requestLine(), b.requestLine());
                assertEquals(a.headers(), b.headers());
                assertArrayEquals(a.body(), b.body());
                assertEquals(kind, a.kind());
                assertFalse(a.variant().contains(TOKEN), "a variant is evidence: it must never carry the token");
            }
        }
    }

    @Test
    void everyClassIsDrawnAndMissingHeadersAreMissing() {
        HttpRequestMutator mutator = new HttpRequestMutator(new Random(1));
        Set<HttpFuzzClass> seen = EnumSet.noneOf(HttpFuzzClass.class);
        for (int i = 0; i < 2000; i++) {
            seen.add(mutator.nextClass());
        }
        assertEquals(EnumSet.allOf(HttpFuzzClass.class), seen);
        for (HttpFuzzClass kind : List.of(HttpFuzzClass.PROTOCOL_VERSION_MISSING, HttpFuzzClass.MCP_METHOD_MISSING,
                HttpFuzzClass.MCP_NAME_MISSING, HttpFuzzClass.CONTENT_TYPE_MISSING)) {
            HttpFuzzCase fuzz = mutator.mutate(kind, base(true));
            String header = switch (kind) {
                case PROTOCOL_VERSION_MISSING -> "MCP-Protocol-Version";
                case MCP_METHOD_MISSING -> "Mcp-Method";
                case MCP_NAME_MISSING -> "Mcp-Name";
                default -> "Content-Type";
            };
            assertNull(HttpCall.value(fuzz.headers(), header), kind + " " + fuzz.headers());
        }
    }

    @Test
    void aValidChunkedBodyDecodesToTheOriginalAndAnOversizeBodyIsOverTheLimit() {
        for (long seed = 0; seed < 30; seed++) {
            HttpRequestMutator.Base base = base(true);
            HttpFuzzCase chunked = new HttpRequestMutator(new Random(seed)).mutate(HttpFuzzClass.CHUNKED_VALID, base);
            assertEquals("chunked", HttpCall.value(chunked.headers(), "Transfer-Encoding"));
            assertNull(HttpCall.value(chunked.headers(), "Content-Length"));
            assertArrayEquals(base.frame().toString().getBytes(StandardCharsets.UTF_8), dechunk(chunked.body()));

            HttpFuzzCase oversize = new HttpRequestMutator(new Random(seed)).mutate(HttpFuzzClass.OVERSIZE_BODY, base);
            assertEquals(413, oversize.requiredStatus());
            byte[] body = HttpCall.value(oversize.headers(), "Transfer-Encoding") == null ? oversize.body() : dechunk(oversize.body());
            assertTrue(body.length > HttpRequestMutator.MAX_BODY && body.length <= HttpRequestMutator.MAX_BODY + 64 * 1024, "" + body.length);
            assertTrue(ExactJson.parse(new String(body, StandardCharsets.UTF_8)).isObject(), "still JSON: only its size is wrong");
        }
    }

    @Test
    void lengthsAndBodiesAreBentAsTheirClassSays() throws Exception {
        for (long seed = 0; seed < 30; seed++) {
            HttpRequestMutator.Base base = base(true);
            int length = base.frame().toString().getBytes(StandardCharsets.UTF_8).length;
            HttpFuzzCase shorter = new HttpRequestMutator(new Random(seed)).mutate(HttpFuzzClass.CONTENT_LENGTH_SHORTER, base);
            assertTrue(Integer.parseInt(HttpCall.value(shorter.headers(), "Content-Length")) < length);
            HttpFuzzCase longer = new HttpRequestMutator(new Random(seed)).mutate(HttpFuzzClass.CONTENT_LENGTH_LONGER, base);
            assertTrue(Integer.parseInt(HttpCall.value(longer.headers(), "Content-Length")) > length);
            assertTrue(longer.mayGoUnanswered(), "a body that never ends can only time out");
            HttpFuzzCase utf8 = new HttpRequestMutator(new Random(seed)).mutate(HttpFuzzClass.INVALID_UTF8, base);
            assertThrows(CharacterCodingException.class,
                    () -> StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(utf8.body())));
            assertEquals(utf8.body().length, Integer.parseInt(HttpCall.value(utf8.headers(), "Content-Length")));
            HttpFuzzCase method = new HttpRequestMutator(new Random(seed)).mutate(HttpFuzzClass.HTTP_METHOD, base);
            assertFalse(method.requestLine().startsWith("POST "), method.requestLine());
        }
    }

    @Test
    void theRelayPlanFollowsItsSeedAndItsOdds() {
        RelayPlan a = new RelayPlan(new Random(5));
        RelayPlan b = new RelayPlan(new Random(5));
        for (int i = 0; i < 20_000; i++) {
            a.decide(i, null, new byte[0]);
            b.decide(i, null, new byte[0]);
        }
        assertEquals(a.counts(), b.counts());
        for (RelayPlan.Kind kind : RelayPlan.ODDS.keySet()) {
            double share = a.counts().get(kind) / 20_000.0;
            assertTrue(Math.abs(share - RelayPlan.ODDS.get(kind)) < 0.015, kind + " " + share);
        }
        assertTrue(a.counts().get(RelayPlan.Kind.FORWARD) > 11_000);
    }

    @Test
    void theRunPlanPutsHttpOnlyExperimentsOnHttpAndTheScanLast() {
        List<FaultExperiments.Planned> http = FaultExperiments.plan(null, List.of(Transport.HTTP));
        List<String> names = http.stream().map(p -> p.experiment().name()).toList();
        assertEquals(List.of("cut-points", "kill-soak", "http-fuzz", "http-proxy", "token-attacks", "stalled-clients", "secrets"), names);
        List<FaultExperiments.Planned> both = FaultExperiments.plan(List.of("cut-points", "secrets"), List.of(Transport.STDIO, Transport.HTTP));
        assertEquals(List.of("cut-points stdio", "cut-points http", "secrets stdio+http"),
                both.stream().map(p -> p.experiment().name() + " " + p.transportLabel()).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FaultExperiments.plan(List.of("http-fuzz"), List.of(Transport.STDIO)));
        assertEquals("experiment 'http-fuzz' runs over http only, not over --transport stdio", e.getMessage());
        assertEquals(FaultExperiments.all().stream().filter(x -> x.transports().contains(Transport.STDIO)).map(FaultExperiment::name).toList(),
                FaultExperiments.plan(null, List.of(Transport.STDIO)).stream().map(p -> p.experiment().name()).toList(),
                "stdio runs what it always ran");
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String text = new String(chunked, StandardCharsets.ISO_8859_1);
        int at = 0;
        while (true) {
            int end = text.indexOf("\r\n", at);
            String size = text.substring(at, end);
            int semicolon = size.indexOf(';');
            int n = Integer.parseInt(semicolon < 0 ? size : size.substring(0, semicolon), 16);
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(chunked, end + 2, n);
            at = end + 2 + n + 2;
        }
    }

    @SuppressWarnings("unused")
    private static List<Header> headers(HttpFuzzCase fuzz) {
        return fuzz.headers();
    }
}
