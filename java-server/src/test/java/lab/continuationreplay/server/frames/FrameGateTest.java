package lab.continuationreplay.server.frames;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameGateTest {
    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new ObjectMapper());
    static final String PARSE_ERROR = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n";
    static final String INVALID = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid JSON-RPC message\"}}\n";
    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}";
    static final String CONTINUATION = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
            + "\"arguments\":{\"operation_id\":\"op\",\"title\":\"t\"},\"inputResponses\":{\"body\":{\"action\":\"accept\","
            + "\"content\":{\"body\":\"alpha\"}}},\"requestState\":\"v1.x\"," + META + "}}";

    /** What the gate passed on (as the SDK would read it) and what it wrote to stdout. */
    record Run(byte[] forwarded, String stdout) {
        String forwardedText() {
            return new String(forwarded, StandardCharsets.UTF_8);
        }
    }

    static Run run(byte[] input) throws IOException {
        return run(new ByteArrayInputStream(input), FrameGate.MAX_FRAME_BYTES);
    }

    static Run run(String input) throws IOException {
        return run(input.getBytes(StandardCharsets.UTF_8));
    }

    static Run run(InputStream input, int limit) throws IOException {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        try (FrameGate gate = new FrameGate(input, MAPPER, new StdoutLines(stdout), limit)) {
            byte[] forwarded = gate.readAllBytes();
            return new Run(forwarded, stdout.toString(StandardCharsets.UTF_8));
        }
    }

    static void assertRefused(String expectedLine, byte[] frame) throws IOException {
        byte[] line = java.util.Arrays.copyOf(frame, frame.length + 1);
        line[frame.length] = '\n';
        Run run = run(line);
        assertEquals(expectedLine, run.stdout(), new String(frame, StandardCharsets.UTF_8));
        assertEquals(0, run.forwarded().length, "nothing forwarded for " + new String(frame, StandardCharsets.UTF_8));
    }

    static void assertRefused(String expectedLine, String frame) throws IOException {
        assertRefused(expectedLine, frame.getBytes(StandardCharsets.UTF_8));
    }

    static String invalidWithId(String idJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"error\":{\"code\":-32600,\"message\":\"Invalid JSON-RPC message\"}}\n";
    }

    static byte[] withBody(byte[] body) {
        String[] halves = CONTINUATION.split("alpha");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(halves[0].getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        out.writeBytes(halves[1].getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @Test
    void trailingTokensAfterTheObjectAreAParseError() throws IOException {
        assertRefused(PARSE_ERROR, CONTINUATION + "}");
        assertRefused(PARSE_ERROR, CONTINUATION + " x");
        assertRefused(PARSE_ERROR, CONTINUATION + " " + CONTINUATION);
        assertRefused(PARSE_ERROR, CONTINUATION + ",");
        assertRefused(PARSE_ERROR, "[1,2] 3");
    }

    @Test
    void invalidUtf8IsAParseErrorNeverAReplacementCharacter() throws IOException {
        byte[][] bad = {
            {(byte) 0xff}, // never valid
            {(byte) 0xc3}, // truncated two-byte sequence
            {(byte) 0x80}, // lone continuation byte
            {(byte) 0xc0, (byte) 0x80}, // overlong NUL
            {(byte) 0xe0, (byte) 0x80, (byte) 0xaf}, // overlong '/'
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, // UTF-16 surrogate half
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
        };
        for (byte[] sequence : bad) {
            byte[] body = new byte[sequence.length + 2];
            body[0] = 'a';
            System.arraycopy(sequence, 0, body, 1, sequence.length);
            body[body.length - 1] = 'b';
            assertRefused(PARSE_ERROR, withBody(body));
        }
        // truncated at the very end of the line
        byte[] frame = CONTINUATION.getBytes(StandardCharsets.UTF_8);
        byte[] truncated = java.util.Arrays.copyOf(frame, frame.length + 1);
        truncated[frame.length] = (byte) 0xe2;
        assertRefused(PARSE_ERROR, truncated);
    }

    @Test
    void jsonrpcMustBeTheString20() throws IOException {
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":2.0"));
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":2"));
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"1.0\""));
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\",", ""));
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":null"));
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":[\"2.0\"]"));
        // a duplicate member counts as the SDK's map sees it: the last one
        assertRefused(invalidWithId("7"), CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"2.0\",\"jsonrpc\":2.0"));
        String lastWins = CONTINUATION.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":2.0,\"jsonrpc\":\"2.0\"") + "\n";
        assertEquals(lastWins, run(lastWins).forwardedText());
    }

    @Test
    void theRefusalCarriesTheIdOnlyWhenTheSdkWould() throws IOException {
        String request = "{\"jsonrpc\":2.0,\"id\":%s,\"method\":\"tools/list\"}";
        assertRefused(invalidWithId("\"abc\""), request.formatted("\"abc\""));
        assertRefused(invalidWithId("-5"), request.formatted("-5"));
        assertRefused(invalidWithId("9007199254740993"), request.formatted("9007199254740993"));
        for (String noId : new String[] {"1.5", "1e3", "99999999999999999999", "null", "true", "{}", "[]"}) {
            assertRefused(INVALID, request.formatted(noId));
        }
        // a notification, and a response: no id
        assertRefused(INVALID, "{\"jsonrpc\":2.0,\"method\":\"notifications/cancelled\"}");
        assertRefused(INVALID, "{\"jsonrpc\":2.0,\"id\":3,\"result\":{}}");
        assertRefused(INVALID, "{\"jsonrpc\":2.0,\"id\":3}");
    }

    @Test
    void aValueThatIsNotAnObjectIsAnInvalidMessageAsTheSdkAnswers() throws IOException {
        for (String value : new String[] {"[]", "[" + CONTINUATION + "]", "\"str\"", "1", "null", "true"}) {
            assertRefused(INVALID, value);
        }
    }

    @Test
    void textThatIsNotJsonIsAParseError() throws IOException {
        for (String garbage : new String[] {"garbage", "{", "{\"jsonrpc\":\"2.0\",}", "{'a':1}", "{\"a\":NaN}",
                "{\"a\":1 /* c */}", "\u00a0{}", "{\"a\":\"raw\u0001control\"}"}) {
            assertRefused(PARSE_ERROR, garbage);
        }
        // nesting beyond Jackson's limit, as the SDK's own parse
        assertRefused(PARSE_ERROR, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");
    }

    @Test
    void validFramesPassByteForByte() throws IOException {
        String[] frames = {
            CONTINUATION,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}",
            "  {\"jsonrpc\" : \"2.0\" , \"id\":\"x\",\"method\":\"tools/list\"}\t ",
            "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/list\"}", // the SDK's to judge
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"s\":\"\\u0000 \\ud83d\\ude00 é 😀 \\\"\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"n\":1e400,\"m\":123456789012345678901234567890}}",
        };
        for (String frame : frames) {
            byte[] line = (frame + "\n").getBytes(StandardCharsets.UTF_8);
            Run run = run(line);
            assertArrayEquals(line, run.forwarded(), frame);
            assertEquals("", run.stdout(), frame);
        }
    }

    @Test
    void aValidFrameOfMoreThanOneMebibytePasses() throws IOException {
        String big = "é😀L".repeat(200_000); // 7 bytes each: 1.4 MB
        byte[] line = (CONTINUATION.replace("alpha", big) + "\n").getBytes(StandardCharsets.UTF_8);
        Run run = run(line);
        assertArrayEquals(line, run.forwarded());
        assertEquals("", run.stdout());
    }

    @Test
    void aFrameOverTheLimitIsAnsweredUnreadAndTheNextStillPasses() throws IOException {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"s\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}}\n";
        String next = CONTINUATION + "\n";
        Run run = run(big + next);
        assertEquals(INVALID, run.stdout());
        assertEquals(next, run.forwardedText());
        // just at the limit passes
        String exact = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\"}";
        Run limited = run(new ByteArrayInputStream((exact + "\n" + exact + " \n").getBytes(StandardCharsets.UTF_8)), exact.length());
        assertEquals(exact + "\n", limited.forwardedText());
        assertEquals(INVALID, limited.stdout());
    }

    @Test
    void blankLinesAndTerminatorsStayAsTheSdkReadsThem() throws IOException {
        String input = "\n \t\n" + CONTINUATION + "\r\n" + CONTINUATION + "\r" + CONTINUATION;
        Run run = run(input);
        assertEquals(input, run.forwardedText());
        assertEquals("", run.stdout());
    }

    @Test
    void refusalsAndPassesKeepTheirOrder() throws IOException {
        Run run = run("garbage\n" + CONTINUATION + "\n[]\n" + CONTINUATION + "}\n" + CONTINUATION + "\n");
        assertEquals(PARSE_ERROR + INVALID + PARSE_ERROR, run.stdout());
        assertEquals(CONTINUATION + "\n" + CONTINUATION + "\n", run.forwardedText());
    }

    @Test
    void availableNeverPromisesAnUncheckedLine() throws IOException {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        byte[] input = (CONTINUATION + "\n" + CONTINUATION + "}\n").getBytes(StandardCharsets.UTF_8);
        try (FrameGate gate = new FrameGate(new ByteArrayInputStream(input), MAPPER, new StdoutLines(stdout))) {
            assertEquals(0, gate.available());
            byte[] first = new byte[10];
            assertEquals(10, gate.read(first));
            assertEquals(CONTINUATION.length() + 1 - 10, gate.available());
            gate.readNBytes(gate.available());
            assertEquals(0, gate.available());
            assertEquals(-1, gate.read());
            assertEquals(PARSE_ERROR, stdout.toString(StandardCharsets.UTF_8));
        }
    }
}
