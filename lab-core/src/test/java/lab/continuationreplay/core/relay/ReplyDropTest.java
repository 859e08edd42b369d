package lab.continuationreplay.core.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReplyDropTest {
    private static byte[] line(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String call(Object id, boolean continuation) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}"
                + (continuation ? ",\"inputResponses\":{\"body\":{\"action\":\"accept\"}},\"requestState\":\"s\"" : "") + "}}";
    }

    private static String reply(Object id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"resultType\":\"complete\"}}";
    }

    @Test
    void theReplyToTheNthContinuationOnlyAndOnlyOnce() {
        ReplyDrop drop = new ReplyDrop(2);
        drop.clientLine(line(call(1, false)));
        drop.clientLine(line(call(2, true)));
        assertFalse(drop.keepsFromClient(line(reply(2))), "the first continuation's reply goes through");
        drop.clientLine(line(call(3, false)));
        drop.clientLine(line(call("\"c-4\"", true)));
        assertFalse(drop.keepsFromClient(line(reply(3))));
        assertFalse(drop.keepsFromClient(line(reply(4))), "4 is not \"c-4\"");
        assertNull(drop.droppedId());
        assertTrue(drop.keepsFromClient(line(reply("\"c-4\""))));
        assertEquals("\"c-4\"", drop.droppedId().toString());
        assertFalse(drop.keepsFromClient(line(reply("\"c-4\""))), "a second reply with the id is not kept");
        drop.clientLine(line(call(5, true)));
        assertFalse(drop.keepsFromClient(line(reply(5))));
    }

    @Test
    void anErrorIsAReplyTooButARequestFromTheServerWithTheIdIsNot() {
        ReplyDrop drop = new ReplyDrop(1);
        drop.clientLine(line(call(7, true)));
        assertFalse(drop.keepsFromClient(line("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"elicitation/create\",\"params\":{}}")));
        assertFalse(drop.keepsFromClient(line("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}")));
        assertTrue(drop.keepsFromClient(line("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"x\"}}")));
    }

    @Test
    void linesThatAreNoFramesAndNotificationsAreNotCounted() {
        ReplyDrop drop = new ReplyDrop(1);
        drop.clientLine(new byte[] {(byte) 0xff, '{'});
        drop.clientLine(line("not json"));
        drop.clientLine(line("[" + call(1, true) + "]"));
        drop.clientLine(line("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"inputResponses\":{}}}"));
        drop.clientLine(line(call(9, true)));
        assertFalse(drop.keepsFromClient(new byte[] {(byte) 0xff}));
        assertTrue(drop.keepsFromClient(line(reply(9))), "the first real continuation is number 1");
    }

    @Test
    void withoutADropNothingIsKept() {
        ReplyDrop drop = new ReplyDrop(0);
        drop.clientLine(line(call(1, true)));
        assertFalse(drop.keepsFromClient(line(reply(1))));
    }
}
