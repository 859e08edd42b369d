package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How an answer is judged: the three refusals, completion, asking again, and what is neither. */
class McpClientTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "200|{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"Invalid or expired requestState\"}}|JSON_RPC_ERROR|-32602 Invalid or expired requestState",
            "400|{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"bad\"}}|JSON_RPC_ERROR|-32602 bad",
            "500|{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}|JSON_RPC_ERROR|-32603 Internal error",
            "200|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"no\"}]}}|TOOL_ERROR|no",
            "200|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"state-ok\"}]}}|COMPLETED|state-ok",
            "200|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"isError\":false,\"content\":[]}}|COMPLETED|",
            "200|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s\"}}|INPUT_REQUIRED|",
            "200|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"task\"}}|OTHER_RESULT|resultType \"task\"",
            "413|body too large|HTTP_4XX|body too large",
            "401|{\"unrelated\":true}|HTTP_4XX|{\"unrelated\":true}",
            "500|internal error|BROKEN|HTTP 500: internal error",
            "200|not json|BROKEN|HTTP 200: not json",
            "503||BROKEN|HTTP 503, empty body"})
    void answersAreJudgedByTheirBodyFirstThenTheirStatus(int status, String body, ReplyKind kind, String detail) {
        Reply reply = McpClient.classify(status, body == null ? "" : body);
        assertEquals(kind, reply.kind());
        assertEquals(detail == null ? "" : detail, reply.detail());
        assertEquals(kind == ReplyKind.JSON_RPC_ERROR || kind == ReplyKind.TOOL_ERROR || kind == ReplyKind.HTTP_4XX, reply.refused());
    }

    @Test
    void eventStreamLinesAreUtf8AndMayBeLongerThanAHeadLine() throws Exception {
        String longData = "data: " + "é".repeat(100_000);
        InputStream in = new ByteArrayInputStream((longData + "\r\n\nlast").getBytes(StandardCharsets.UTF_8));
        assertEquals(longData, McpClient.eventLine(in));
        assertEquals("", McpClient.eventLine(in));
        assertEquals("last", McpClient.eventLine(in));
        assertNull(McpClient.eventLine(in));
    }

    @Test
    void everyRequestCarriesTheEnvelopeWithAllThreeCapabilities() {
        var meta = McpClient.meta();
        assertEquals("2026-07-28", meta.path("io.modelcontextprotocol/protocolVersion").asText());
        var capabilities = meta.path("io.modelcontextprotocol/clientCapabilities");
        for (String capability : new String[] {"elicitation", "sampling", "roots"}) {
            assertTrue(capabilities.path(capability).isObject(), capability);
        }
    }

    @Test
    void aLongDetailIsCutToOneLine() {
        String detail = McpClient.excerpt("a\nb".repeat(200));
        assertFalse(detail.contains("\n"));
        assertEquals(160, detail.length());
    }
}
