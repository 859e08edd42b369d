package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire facts of HTTP transcripts written by hand into a case folder, line by line as the lab writes them: which
 * call got which reply, the status each call's response had, and what counts as a server defect.
 */
class WireFactsHttpTest {
    private static final String VERSION = "2026-07-28";

    @TempDir
    Path folder;

    /** A tools/call frame with id {@code id}; a continuation when {@code state} is not null. */
    private static String call(long id, String state) {
        String continuation = state == null ? "" : ",\"inputResponses\":{\"body\":{\"action\":\"accept\"}},\"requestState\":\"" + state + "\"";
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
                + "\"arguments\":{\"operation_id\":\"c-1\",\"title\":\"t\"}" + continuation
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + VERSION + "\"}}}";
    }

    private static String result(long id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"resultType\":\"complete\",\"structuredContent\":{\"effectId\":" + id + "}}}";
    }

    private static String error(long id, int code) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":" + code + ",\"message\":\"refused\"}}";
    }

    private static String requestHead(int exchange) {
        return ">h {\"exchange\":" + exchange + ",\"connection\":" + exchange + ",\"request\":\"POST /mcp HTTP/1.1\","
                + "\"headers\":[[\"Host\",\"127.0.0.1:4000\"],[\"Authorization\",\"Bearer [token of alice]\"]]}\n";
    }

    private static String responseHead(int exchange, int status, String contentType) {
        return "<h {\"exchange\":" + exchange + ",\"connection\":" + exchange + ",\"status\":" + status
                + ",\"headers\":[[\"Content-Type\",\"" + contentType + "\"]]}\n";
    }

    private static String request(int exchange, String body) {
        return requestHead(exchange) + "> " + body + "\n";
    }

    private static String response(int exchange, int status, String contentType, String body) {
        return responseHead(exchange, status, contentType) + "< " + body + "\n";
    }

    private static String base64Body(String prefix, byte[] body) {
        return prefix + Base64.getEncoder().encodeToString(body) + "\n";
    }

    private static String noResponse(int exchange, String ended) {
        return "<x {\"exchange\":" + exchange + ",\"connection\":" + exchange + ",\"ended\":\"" + ended + "\",\"headers\":[]}\n";
    }

    private WireFacts read(String transcript) throws Exception {
        Files.writeString(folder.resolve("server.transcript.log"), transcript);
        return WireFacts.read(folder, List.of("server"));
    }

    private static WireFacts.Call only(WireFacts facts) {
        assertEquals(1, facts.calls().size(), facts.calls().toString());
        return facts.calls().get(0);
    }

    @Test
    void aJsonReplyIsTheReplyOfTheCallItsExchangeCarried() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + response(1, 200, "application/json", result(1)));
        WireFacts.Call call = only(facts);
        assertEquals("server", call.source());
        assertEquals(1, call.id());
        assertEquals("create_guarded_issue", call.tool());
        assertFalse(call.continuation());
        assertTrue(call.answered());
        assertEquals(ExactJson.parse(result(1)), call.reply());
        assertEquals(200, call.httpStatus());
        assertEquals(1, facts.replies());
        assertEquals(List.of(), facts.nonFrames());
        assertEquals(List.of(VERSION), facts.protocolVersions());
    }

    @Test
    void anEventStreamReplyIsTheFrameInItsDataLines() throws Exception {
        String stream = "id: 0\ndata: \n\n: keep-alive\n\nevent: message\nid: 1\ndata: " + result(1) + "\n\n";
        WireFacts facts = read(request(1, call(1, "v1.abc")) + responseHead(1, 200, "text/event-stream; charset=utf-8")
                + base64Body("<b ", stream.getBytes(StandardCharsets.UTF_8)));
        WireFacts.Call call = only(facts);
        assertTrue(call.continuation());
        assertTrue(call.statePresent());
        assertEquals(ExactJson.parse(result(1)), call.reply());
        assertEquals(200, call.httpStatus());
        assertEquals(1, facts.replies());
        assertEquals(List.of(), facts.nonFrames(), "an empty priming event beside the frame is no defect");
    }

    @Test
    void anEventStreamWhoseDataIsSplitOverLinesIsOneFrame() throws Exception {
        String stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1,\"result\":{}}\n\n";
        WireFacts facts = read(request(1, call(1, null)) + responseHead(1, 200, "text/event-stream")
                + base64Body("<b ", stream.getBytes(StandardCharsets.UTF_8)));
        assertTrue(only(facts).answered());
        assertEquals(1, facts.replies());
    }

    @Test
    void a400WithAJsonRpcErrorIsAnAnsweredCallThatKeepsItsStatus() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + response(1, 400, "application/json", error(1, -32020)));
        WireFacts.Call call = only(facts);
        assertTrue(call.answered());
        assertEquals(400, call.httpStatus());
        assertTrue(call.asReply().refused());
        assertEquals(List.of(), facts.nonFrames());

        JsonNode record = CaseRecord.wire(facts).path("calls").get(0);
        assertEquals(400, record.path("http_status").intValue());
        assertEquals("jsonrpc_error", record.path("reply").path("shape").textValue());
        assertEquals(-32020, record.path("reply").path("code").intValue());
    }

    @Test
    void a401WithPlainTextIsNeitherAReplyNorANonFrame() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + response(1, 401, "text/plain", "Unauthorized"));
        WireFacts.Call call = only(facts);
        assertFalse(call.answered());
        assertEquals(401, call.httpStatus());
        assertEquals(0, facts.replies());
        assertEquals(List.of(), facts.nonFrames());

        JsonNode record = CaseRecord.wire(facts).path("calls").get(0);
        assertEquals(401, record.path("http_status").intValue());
        assertTrue(record.path("reply").isNull());
    }

    @Test
    void a500WithAnHtmlPageIsNoNonFrameEither() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + response(1, 500, "text/html", "<html>oops</html>"));
        assertEquals(500, only(facts).httpStatus());
        assertEquals(List.of(), facts.nonFrames());
    }

    @Test
    void a202WithoutABodyAcceptsANotificationAndIsNoDefectButAnEmpty200Is() throws Exception {
        String cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}";
        WireFacts accepted = read(request(1, cancel) + response(1, 202, "text/plain", ""));
        assertEquals(List.of(), accepted.nonFrames());
        assertEquals(0, accepted.replies());
        WireFacts empty = read(request(1, call(1, null)) + response(1, 200, "application/json", ""));
        assertEquals(List.of(new WireFacts.NonFrame("server", "HTTP 200 body ")), empty.nonFrames());
        assertFalse(only(empty).answered());
    }

    @Test
    void a200WhoseBodyIsNotJsonIsANonFrameOfItsProcess() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + response(1, 200, "application/json", "<html>hello</html>"));
        WireFacts.Call call = only(facts);
        assertFalse(call.answered());
        assertEquals(200, call.httpStatus());
        assertEquals(0, facts.replies());
        assertEquals(List.of(new WireFacts.NonFrame("server", "HTTP 200 body <html>hello</html>")), facts.nonFrames());
    }

    @Test
    void a200WhoseBodyIsJsonButNoJsonRpcFrameIsANonFrame() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + response(1, 200, "application/json", "{\"id\":1,\"result\":{}}"));
        assertFalse(only(facts).answered());
        assertEquals(List.of(new WireFacts.NonFrame("server", "HTTP 200 body {\"id\":1,\"result\":{}}")), facts.nonFrames());
    }

    @Test
    void a200EventStreamWithoutAFrameIsANonFrameQuotingTheStream() throws Exception {
        String stream = "event: message\ndata: not json\n\n";
        WireFacts facts = read(request(1, call(1, null)) + responseHead(1, 200, "text/event-stream")
                + base64Body("<b ", stream.getBytes(StandardCharsets.UTF_8)));
        assertFalse(only(facts).answered());
        assertEquals(List.of(new WireFacts.NonFrame("server", "HTTP 200 body " + stream)), facts.nonFrames());
    }

    @Test
    void aLongNonFrameIsQuotedOnlyByItsStart() throws Exception {
        String body = "x".repeat(300);
        WireFacts facts = read(request(1, call(1, null)) + response(1, 200, "text/plain", body));
        String quoted = facts.nonFrames().get(0).start();
        assertEquals(("HTTP 200 body " + body).substring(0, WireFacts.QUOTED) + "...", quoted);
    }

    @Test
    void a200BodyThatIsNotUtf8IsANonFrameQuotedInBase64() throws Exception {
        byte[] latin1 = {'{', (byte) 0xE9, '}'};
        WireFacts facts = read(request(1, call(1, null)) + responseHead(1, 200, "application/json") + base64Body("<b ", latin1));
        assertFalse(only(facts).answered());
        assertEquals(List.of(new WireFacts.NonFrame("server", "HTTP 200 body (not UTF-8, base64) "
                + Base64.getEncoder().encodeToString(latin1))), facts.nonFrames());
    }

    @Test
    void anExchangeWithoutAResponseLeavesItsCallUnansweredAndWithoutAStatus() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + noResponse(1, "closed before a response"));
        WireFacts.Call call = only(facts);
        assertFalse(call.answered());
        assertNull(call.httpStatus());
        assertEquals(0, facts.replies());
        assertEquals(List.of(), facts.nonFrames());
        JsonNode record = CaseRecord.wire(facts).path("calls").get(0);
        assertFalse(record.has("http_status"));
        assertTrue(record.path("reply").isNull());
    }

    @Test
    void aNoResponseLineIsNotTakenForTheHeadOfTheNextBody() throws Exception {
        // The <x line ends exchange 1 and leaves no head behind: the next body belongs to the next head.
        WireFacts facts = read(request(1, call(1, null)) + noResponse(1, "no response within 300 ms")
                + request(2, call(2, null)) + response(2, 200, "application/json", result(2)));
        assertEquals(2, facts.calls().size());
        assertFalse(facts.calls().get(0).answered());
        assertNull(facts.calls().get(0).httpStatus());
        assertTrue(facts.calls().get(1).answered());
        assertEquals(200, facts.calls().get(1).httpStatus());
    }

    @Test
    void twoExchangesAnsweredInTheOtherOrderPairByExchange() throws Exception {
        WireFacts facts = read(request(1, call(1, null)) + request(2, call(2, "v1.s"))
                + response(2, 409, "application/json", error(2, -32602))
                + response(1, 200, "application/json", result(1)));
        assertEquals(2, facts.calls().size());
        WireFacts.Call first = facts.calls().get(0);
        WireFacts.Call second = facts.calls().get(1);
        assertEquals(1, first.id());
        assertEquals(200, first.httpStatus());
        assertEquals(ExactJson.parse(result(1)), first.reply());
        assertEquals(2, second.id());
        assertEquals(409, second.httpStatus());
        assertEquals(ExactJson.parse(error(2, -32602)), second.reply());
        assertEquals(2, facts.replies());
    }

    @Test
    void theStatusFollowsTheExchangeNumberNotTheOrderOfResponses() throws Exception {
        // Both responses are unframed, so only the exchange number can say whose status is whose.
        WireFacts facts = read(request(1, call(10, null)) + request(2, call(20, null))
                + response(2, 503, "text/plain", "busy") + response(1, 401, "text/plain", "no"));
        assertEquals(401, facts.calls().get(0).httpStatus());
        assertEquals(503, facts.calls().get(1).httpStatus());
    }

    @Test
    void stdioAndHttpTranscriptsOfOneCaseAreReadTogetherInSpawnOrder() throws Exception {
        Files.writeString(folder.resolve("first.transcript.log"), "> " + call(1, null) + "\n< " + result(1) + "\n");
        Files.writeString(folder.resolve("second.transcript.log"), request(1, call(1, "v1.s")) + response(1, 200, "application/json", result(1)));
        WireFacts facts = WireFacts.read(folder, List.of("second", "first"));
        assertEquals(List.of("second", "first"), facts.calls().stream().map(WireFacts.Call::source).toList());
        assertEquals(200, facts.calls().get(0).httpStatus());
        assertNull(facts.calls().get(1).httpStatus(), "a stdio call has no HTTP status");
        assertTrue(facts.calls().get(1).answered());
    }

    @Test
    void aHeadLineThatIsNotJsonIsAFormatErrorNamingTheFile() throws Exception {
        FormatException e = assertThrows(FormatException.class,
                () -> read(request(1, call(1, null)) + "<h {not json\n< " + result(1) + "\n"));
        assertTrue(e.getMessage().startsWith("server.transcript.log: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("an HTTP head that is not JSON"), e.getMessage());
    }

    @Test
    void aHeadWithoutItsMembersIsAFormatErrorNamingTheFile() throws Exception {
        FormatException e = assertThrows(FormatException.class, () -> read(">h {\"exchange\":1}\n> " + call(1, null) + "\n"));
        assertTrue(e.getMessage().startsWith("server.transcript.log: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("an HTTP head without exchange, connection and headers"), e.getMessage());
    }

    @Test
    void aHeadWithABadHeaderIsAFormatErrorNamingTheFile() throws Exception {
        FormatException e = assertThrows(FormatException.class,
                () -> read("<h {\"exchange\":1,\"connection\":1,\"status\":200,\"headers\":[[\"Content-Type\"]]}\n< {}\n"));
        assertTrue(e.getMessage().startsWith("server.transcript.log: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("an HTTP header that is not a [name, value] pair"), e.getMessage());
    }
}
