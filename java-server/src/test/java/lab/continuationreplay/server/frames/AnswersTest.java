package lab.continuationreplay.server.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The books the stdio server keeps so that the end of stdin need not wait for a quiet moment: a request the gate
 * passes is outstanding until a writer's reply with its id is out. Whatever does not balance exactly (a reply for an
 * id never passed, a gate refusal, a notification, an id the SDK cannot echo) must never settle a request.
 */
class AnswersTest {
    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aPassedRequestIsOutstandingUntilAWriterRepliesWithItsId() throws Exception {
        AtomicInteger changes = new AtomicInteger();
        Answers answers = new Answers(changes::incrementAndGet);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        StdoutLines lines = new StdoutLines(stdout, answers);
        String input = FrameGateTest.CONTINUATION + "\n{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"ping\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
        try (FrameGate gate = new FrameGate(new ByteArrayInputStream(bytes(input)), FrameGateTest.MAPPER, lines, answers)) {
            gate.readAllBytes();
        }
        assertFalse(answers.allAnswered(), "two requests passed, none answered");
        OutputStream sdk = lines.writer();
        sdk.write(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"id\":7}}\n"));
        sdk.write(bytes("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n"));
        assertFalse(answers.allAnswered(), "the string id b is still outstanding");
        assertEquals(1, changes.get(), "one request settled");
        sdk.write(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"error\":{\"code\":-32601,\"message\":\"no\"}}\n"));
        assertTrue(answers.allAnswered());
    }

    @Test
    void neitherGateRefusalsNorRepliesToIdsNeverPassedSettleARequest() throws Exception {
        Answers answers = new Answers(() -> {});
        StdoutLines lines = new StdoutLines(new ByteArrayOutputStream(), answers);
        // Refused by the gate (jsonrpc 2.0 as a number), so never passed: its refusal carries id 3 but settles nothing.
        String input = "{\"jsonrpc\":2.0,\"id\":3,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n";
        try (FrameGate gate = new FrameGate(new ByteArrayInputStream(bytes(input)), FrameGateTest.MAPPER, lines, answers)) {
            gate.readAllBytes();
        }
        lines.writeLine(bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32600,\"message\":\"x\"}}\n"));
        assertFalse(answers.allAnswered(), "a gate's own line is not the SDK's reply");
        lines.writer().write(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}\n"));
        assertFalse(answers.allAnswered(), "id 4 was never passed");
        lines.writer().write(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"3\",\"result\":{}}\n"));
        assertFalse(answers.allAnswered(), "the string \"3\" is not the number 3");
        lines.writer().write(bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n"));
        assertTrue(answers.allAnswered());
    }

    @Test
    void aRepeatedIdNeedsAReplyForEachTime() throws Exception {
        Answers answers = new Answers(() -> {});
        StdoutLines lines = new StdoutLines(new ByteArrayOutputStream(), answers);
        String request = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n";
        try (FrameGate gate = new FrameGate(new ByteArrayInputStream(bytes(request + request)), FrameGateTest.MAPPER, lines, answers)) {
            gate.readAllBytes();
        }
        lines.writer().write(bytes("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n"));
        assertFalse(answers.allAnswered());
        lines.writer().write(bytes("{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":{\"code\":-32600,\"message\":\"duplicate\"}}\n"));
        assertTrue(answers.allAnswered());
    }

    @Test
    void onlyRequestsWithAnIdTheSdkEchoesAreBookedAndOnlyRepliesCount() {
        assertEquals(7, JsonRpcShape.inspect(bytes(FrameGateTest.CONTINUATION), 0, FrameGateTest.CONTINUATION.length()).requestId());
        assertNull(JsonRpcShape.inspect(bytes("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}"), 0, 39).requestId());
        assertNull(JsonRpcShape.inspect(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"), 0, 30).requestId());
        String reply = "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"id\":1}}";
        assertEquals("a", JsonRpcShape.replyId(bytes(reply), 0, reply.length()));
        String request = "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"x\",\"result\":1}";
        assertNull(JsonRpcShape.replyId(bytes(request), 0, request.length()));
        assertNull(JsonRpcShape.replyId(bytes("[1]"), 0, 3));
        assertNull(JsonRpcShape.replyId(bytes("{\"id\":"), 0, 6));
    }
}
