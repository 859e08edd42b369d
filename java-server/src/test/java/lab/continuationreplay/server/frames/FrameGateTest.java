package lab.continuationreplay.server.frames;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gate's verdict on single lines lives in the shared table {@code vectors/rules/strict-frames.json}, which
 * {@code ts-fixture/test/strict-frames.test.ts} reads too (the two gates differ on purpose in places; the table says
 * where and why). This class adds what is the Java gate's own: its limit, line terminators, order, and reading.
 */
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

    static String invalidWithId(String idJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"error\":{\"code\":-32600,\"message\":\"Invalid JSON-RPC message\"}}\n";
    }

    static List<RuleTable.Case> sharedTable() {
        return RuleTable.load("strict-frames.json").cases(RuleTable.JAVA);
    }

    /** A line of the table: a string (UTF-8), or parts that are strings, {"hex": …} or {"repeat": …, "times": n}. */
    static byte[] lineBytes(JsonNode line) {
        if (line.isTextual()) {
            return line.textValue().getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (JsonNode part : line) {
            if (part.isTextual()) {
                out.writeBytes(part.textValue().getBytes(StandardCharsets.UTF_8));
            } else if (part.has("hex")) {
                out.writeBytes(HexFormat.of().parseHex(part.get("hex").textValue()));
            } else {
                out.writeBytes(part.get("repeat").textValue().repeat(part.get("times").intValue()).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }

    /** The shared cases, one line each, through the gate with its real limit. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedTable")
    void theSharedTable(RuleTable.Case rule) throws IOException {
        byte[] frame = lineBytes(rule.row().get("line"));
        Run run = run(terminated(frame));
        JsonNode expected = rule.expected();
        switch (expected.get("verdict").textValue()) {
            case "forward" -> {
                byte[] as = expected.has("as") ? expected.get("as").textValue().getBytes(StandardCharsets.UTF_8) : frame;
                assertArrayEquals(terminated(as), run.forwarded(), rule.name() + ": forwarded");
                assertEquals("", run.stdout(), rule.name() + ": nothing on stdout");
            }
            case "reply" -> {
                assertEquals(expected.get("line").textValue() + "\n", run.stdout(), rule.name() + ": the reply");
                assertEquals(0, run.forwarded().length, rule.name() + ": nothing forwarded");
            }
            case "drop" -> {
                assertEquals("", run.stdout(), rule.name() + ": nothing on stdout");
                assertEquals(0, run.forwarded().length, rule.name() + ": nothing forwarded");
            }
            default -> throw new IllegalStateException("unknown verdict " + expected);
        }
    }

    private static byte[] terminated(byte[] frame) {
        byte[] line = Arrays.copyOf(frame, frame.length + 1);
        line[frame.length] = '\n';
        return line;
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
