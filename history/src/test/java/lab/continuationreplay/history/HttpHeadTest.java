package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.history.HttpHead.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** An HTTP head as one line of JSON: the exact text written, read back, and what is refused with which message. */
class HttpHeadTest {
    @Test
    void aRequestHeadIsWrittenWithItsRequestLineAndHeadersInWireOrder() {
        HttpHead head = HttpHead.request(3, 2, "POST /mcp HTTP/1.1",
                List.of(new Header("Host", "127.0.0.1:9"), new Header("Authorization", "Bearer [token of alice]"),
                        new Header("X-Dup", "1"), new Header("X-Dup", "2")));
        assertEquals("{\"exchange\":3,\"connection\":2,\"request\":\"POST /mcp HTTP/1.1\",\"headers\":[[\"Host\",\"127.0.0.1:9\"],"
                + "[\"Authorization\",\"Bearer [token of alice]\"],[\"X-Dup\",\"1\"],[\"X-Dup\",\"2\"]]}", head.json());
    }

    @Test
    void aResponseHeadHasAStatusAndNoRequestLine() {
        HttpHead head = HttpHead.response(1, 1, 401, List.of(new Header("WWW-Authenticate", "Bearer")));
        assertEquals("{\"exchange\":1,\"connection\":1,\"status\":401,\"headers\":[[\"WWW-Authenticate\",\"Bearer\"]]}", head.json());
        assertNull(head.requestLine());
        assertNull(head.ended());
    }

    @Test
    void aNoResponseHeadSaysHowItEndedAndHasNoHeaders() {
        HttpHead head = HttpHead.noResponse(2, 5, "closed before a response");
        assertEquals("{\"exchange\":2,\"connection\":5,\"ended\":\"closed before a response\",\"headers\":[]}", head.json());
        assertEquals(0, head.status());
    }

    @Test
    void textThatNeedsEscapingSurvivesTheRoundTrip() throws Exception {
        HttpHead head = HttpHead.request(1, 1, "GET /a\"b\\c HTTP/1.1",
                List.of(new Header("X-Quote", "\"quoted\"\t\u0001 é ✓"), new Header("", "")));
        assertEquals(head, HttpHead.parse(head.json(), "here"));
    }

    @Test
    void everyKindOfHeadReadsBackEqual() throws Exception {
        for (HttpHead head : List.of(HttpHead.request(1, 1, "POST /mcp HTTP/1.1", List.of(new Header("A", "b"))),
                HttpHead.response(12, 4, 200, List.of(new Header("Content-Type", "text/event-stream"))),
                HttpHead.noResponse(2, 2, "reset before a response (Connection reset)"))) {
            assertEquals(head, HttpHead.parse(head.json(), "here"));
        }
    }

    @Test
    void theHeadersListIsACopy() {
        List<Header> headers = new ArrayList<>(List.of(new Header("A", "1")));
        HttpHead head = HttpHead.response(1, 1, 200, headers);
        headers.add(new Header("B", "2"));
        assertEquals(1, head.headers().size());
        assertThrows(UnsupportedOperationException.class, () -> head.headers().add(new Header("C", "3")));
    }

    @Test
    void aHeaderIsFoundByNameInAnyCaseAndTheFirstValueWins() {
        HttpHead head = HttpHead.response(1, 1, 200, List.of(new Header("content-type", "application/json"),
                new Header("Content-Type", "text/plain")));
        assertEquals("application/json", head.header("CONTENT-TYPE"));
        assertNull(head.header("Content-Length"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            text/event-stream                 | true
            text/event-stream; charset=utf-8  | true
            Text/Event-Stream                 | true
            application/json                  | false
            text/plain                        | false
            """)
    void anEventStreamIsKnownByItsContentType(String contentType, boolean eventStream) {
        assertEquals(eventStream, HttpHead.response(1, 1, 200, List.of(new Header("Content-Type", contentType))).eventStream());
    }

    @Test
    void aHeadWithoutContentTypeIsNoEventStream() {
        assertFalse(HttpHead.response(1, 1, 200, List.of()).eventStream());
        assertTrue(HttpHead.response(1, 1, 200, List.of(new Header("content-type", "text/event-stream"))).eventStream());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "{", "{\"exchange\":1,\"connection\":1,\"headers\":[]} trailing", "{'exchange':1}"})
    void textThatIsNotJsonIsRefused(String text) {
        FormatException e = assertThrows(FormatException.class, () -> HttpHead.parse(text, "s.transcript.log: line 4"));
        assertEquals("s.transcript.log: line 4: an HTTP head that is not JSON", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"connection\":1,\"headers\":[]}",
        "{\"exchange\":1,\"headers\":[]}",
        "{\"exchange\":1,\"connection\":1}",
        "{\"exchange\":\"1\",\"connection\":1,\"headers\":[]}",
        "{\"exchange\":1.5,\"connection\":1,\"headers\":[]}",
        "{\"exchange\":1,\"connection\":null,\"headers\":[]}",
        "{\"exchange\":1,\"connection\":1,\"headers\":{}}",
        "{\"exchange\":1,\"connection\":1,\"headers\":\"Host: x\"}",
        "{\"exchange\":99999999999,\"connection\":1,\"headers\":[]}",
        "[1,1,[]]",
        "null",
        "{}"})
    void aHeadWithoutExchangeConnectionAndHeadersIsRefused(String json) {
        FormatException e = assertThrows(FormatException.class, () -> HttpHead.parse(json, "where"));
        assertEquals("where: an HTTP head without exchange, connection and headers", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "[\"Host\"]",
        "[\"Host\",\"a\",\"b\"]",
        "[]",
        "[\"Host\",1]",
        "[1,\"a\"]",
        "[\"Host\",null]",
        "\"Host: a\"",
        "{\"name\":\"Host\",\"value\":\"a\"}"})
    void aHeaderThatIsNotANameValuePairIsRefused(String header) {
        String json = "{\"exchange\":1,\"connection\":1,\"headers\":[[\"Ok\",\"fine\"]," + header + "]}";
        FormatException e = assertThrows(FormatException.class, () -> HttpHead.parse(json, "where"));
        assertEquals("where: an HTTP header that is not a [name, value] pair", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            "status":"200"              | status
            "status":true               | status
            "status":200.5              | status
            "status":null               | status
            "request":5                 | request
            "request":["POST /mcp"]     | request
            "request":null              | request
            "ended":{}                  | ended
            "ended":false               | ended
            """)
    void anOptionalMemberOfTheWrongTypeIsRefusedNotReadAsAbsent(String member, String name) {
        String json = "{\"exchange\":1,\"connection\":1," + member + ",\"headers\":[]}";
        FormatException e = assertThrows(FormatException.class, () -> HttpHead.parse(json, "where"));
        assertEquals("where: an HTTP head whose \"" + name + "\" is not " + (name.equals("status") ? "an integer" : "text"),
                e.getMessage());
    }

    @Test
    void membersItDoesNotKnowAreIgnoredAndMissingOptionalOnesAreAbsent() throws Exception {
        HttpHead head = HttpHead.parse("{\"headers\":[],\"connection\":2,\"exchange\":1,\"extra\":true}", "where");
        assertEquals(new HttpHead(1, 2, null, 0, null, List.of()), head);
    }
}
