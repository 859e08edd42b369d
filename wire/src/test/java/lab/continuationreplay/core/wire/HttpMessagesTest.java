package lab.continuationreplay.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.HttpHead.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading HTTP/1.1 lines, heads and bodies as bytes, and how a credential is shown: over byte streams, no socket needed. */
class HttpMessagesTest {
    private static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static final List<Header> CHUNKED = List.of(new Header("Transfer-Encoding", "chunked"));

    @Test
    void aLineEndsAtCrlfOrABareLineFeedAndKeepsEveryOtherByte() throws IOException {
        InputStream in = bytes("first\r\nsecond\nthi\rrd\r\n\r\n\u00e9\r\n");
        assertEquals("first", HttpMessages.line(in));
        assertEquals("second", HttpMessages.line(in));
        assertEquals("thi\rrd", HttpMessages.line(in), "a carriage return inside a line stays");
        assertEquals("", HttpMessages.line(in));
        assertEquals("\u00e9", HttpMessages.line(in), "bytes are read as ISO-8859-1, one char per byte");
    }

    @Test
    void theEndOfTheStreamBeforeALineEndIsAnEofSayingWhere() {
        assertEquals("closed", assertThrows(EOFException.class, () -> HttpMessages.line(bytes(""))).getMessage());
        assertEquals("closed mid-line", assertThrows(EOFException.class, () -> HttpMessages.line(bytes("HTTP/1.1 2"))).getMessage());
    }

    @Test
    void aLineOverTheHeadLimitIsRefused() {
        IOException e = assertThrows(IOException.class, () -> HttpMessages.line(bytes("x".repeat(HttpMessages.MAX_HEAD + 1) + "\n")));
        assertEquals("a line over " + HttpMessages.MAX_HEAD + " bytes", e.getMessage());
        assertEquals(HttpMessages.MAX_HEAD, assertThrowsNothing(() -> HttpMessages.line(bytes("x".repeat(HttpMessages.MAX_HEAD) + "\n"))).length());
    }

    private interface Reading<T> {
        T read() throws IOException;
    }

    private static <T> T assertThrowsNothing(Reading<T> reading) {
        try {
            return reading.read();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void headersAreReadInOrderUpToTheBlankLineWithNamesAndValuesTrimmed() throws IOException {
        InputStream in = bytes("Content-Type:  application/json \r\nX-Empty:\r\nx-dup: 1\r\nX-Dup: 2\r\nWeird: a:b\r\n\r\nbody");
        assertEquals(List.of(new Header("Content-Type", "application/json"), new Header("X-Empty", ""), new Header("x-dup", "1"),
                new Header("X-Dup", "2"), new Header("Weird", "a:b")), HttpMessages.headers(in));
        assertEquals("body", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1), "nothing after the head is read");
    }

    @ParameterizedTest
    @ValueSource(strings = {"no colon", ": empty name"})
    void aHeaderWithoutANameIsRefused(String line) {
        IOException e = assertThrows(IOException.class, () -> HttpMessages.headers(bytes("A: 1\r\n" + line + "\r\n\r\n")));
        assertEquals("a header without a name: " + line, e.getMessage());
    }

    @Test
    void aHeadOverTheLimitIsRefusedEvenWhenEveryLineIsShort() {
        String line = "X-Filler: " + "f".repeat(1000) + "\r\n";
        String head = line.repeat(HttpMessages.MAX_HEAD / 1000 + 2) + "\r\n";
        IOException e = assertThrows(IOException.class, () -> HttpMessages.headers(bytes(head)));
        assertEquals("a head over " + HttpMessages.MAX_HEAD + " bytes", e.getMessage());
    }

    @Test
    void aHeadThatEndsBeforeItsBlankLineIsAnEof() {
        assertThrows(EOFException.class, () -> HttpMessages.headers(bytes("A: 1\r\n")));
    }

    @Test
    void aHeaderValueIsFoundByNameInAnyCase() {
        List<Header> headers = List.of(new Header("content-length", "3"), new Header("Content-Length", "4"));
        assertEquals("3", HttpMessages.value(headers, "CONTENT-LENGTH"));
        assertNull(HttpMessages.value(headers, "Transfer-Encoding"));
    }

    @Test
    void aChunkedBodyIsJoinedWithoutSizesExtensionsOrTrailers() throws IOException {
        InputStream in = bytes("5;a=b\r\nhello\r\nA ; c\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\nnext");
        assertArrayEquals("hello, world!!!".getBytes(StandardCharsets.US_ASCII), HttpMessages.body(in, CHUNKED, true));
        assertEquals("next", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1), "the body ends at the last chunk");
    }

    @Test
    void chunkedWinsOverContentLengthAndAnyCaseOfItCounts() throws IOException {
        List<Header> both = List.of(new Header("Content-Length", "100"), new Header("transfer-encoding", "gzip, Chunked"));
        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), HttpMessages.body(bytes("3\r\nabc\r\n0\r\n\r\n"), both, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zz", "", "-5", "+5", "0x5", "5 5"})
    void aChunkSizeThatIsNotHexadecimalIsRefused(String size) {
        IOException e = assertThrows(IOException.class, () -> HttpMessages.body(bytes(size + "\r\nhello\r\n0\r\n\r\n"), CHUNKED, true));
        assertEquals("a chunk size that is not hexadecimal: " + size, e.getMessage());
    }

    @Test
    void aChunkLargerThanTheBodyLimitIsRefusedBeforeItIsRead() {
        String size = Integer.toHexString(HttpMessages.MAX_BODY + 1);
        IOException e = assertThrows(IOException.class, () -> HttpMessages.body(bytes(size + "\r\n"), CHUNKED, true));
        assertEquals("a body over " + HttpMessages.MAX_BODY + " bytes", e.getMessage());
    }

    @Test
    void aChunkedBodyCutShortIsAnEof() {
        assertThrows(EOFException.class, () -> HttpMessages.body(bytes("10\r\nshort"), CHUNKED, true));
        assertThrows(EOFException.class, () -> HttpMessages.body(bytes("5\r\nhello\r\n"), CHUNKED, true));
    }

    @Test
    void aContentLengthBodyIsExactlyThatManyBytes() throws IOException {
        InputStream in = bytes("{}extra");
        assertArrayEquals("{}".getBytes(StandardCharsets.US_ASCII), HttpMessages.body(in, List.of(new Header("Content-Length", " 2 ")), true));
        assertEquals("extra", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
        assertThrows(EOFException.class, () -> HttpMessages.body(bytes("{"), List.of(new Header("Content-Length", "2")), true));
    }

    @Test
    void aContentLengthThatIsNotANumberOrOutOfRangeIsRefused() {
        assertEquals("a Content-Length that is not a number: two", assertThrows(IOException.class,
                () -> HttpMessages.body(bytes(""), List.of(new Header("Content-Length", "two")), true)).getMessage());
        assertEquals("a body of -1 bytes", assertThrows(IOException.class,
                () -> HttpMessages.body(bytes(""), List.of(new Header("Content-Length", "-1")), true)).getMessage());
        int over = HttpMessages.MAX_BODY + 1;
        assertEquals("a body of " + over + " bytes", assertThrows(IOException.class,
                () -> HttpMessages.body(bytes(""), List.of(new Header("Content-Length", Integer.toString(over))), true)).getMessage());
    }

    @Test
    void withoutLengthOrChunkingAResponseRunsToTheEndAndARequestHasNoBody() throws IOException {
        assertArrayEquals("all of it".getBytes(StandardCharsets.US_ASCII), HttpMessages.body(bytes("all of it"), List.of(), true));
        InputStream in = bytes("next request");
        assertArrayEquals(new byte[0], HttpMessages.body(in, List.of(), false));
        assertEquals("next request", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void anAuthorizationValueIsShownByItsPrincipalOrOnlyByItsLength() {
        Map<String, String> principals = Map.of("tok-alice", "alice");
        List<Header> shown = HttpMessages.redacted(List.of(new Header("Authorization", "Bearer tok-alice"),
                new Header("AUTHORIZATION", "Bearer someone-else"), new Header("authorization", "tok-alice"),
                new Header("Authorization", "Basic dXNlcjpwYXNz"), new Header("X-Token", "tok-alice")), principals);
        assertEquals(List.of(new Header("Authorization", "Bearer [token of alice]"),
                new Header("AUTHORIZATION", "Bearer [redacted, 12 characters]"),
                new Header("authorization", "[token of alice]"),
                new Header("Authorization", "Basic [redacted, 12 characters]"),
                new Header("X-Token", "tok-alice")), shown, "only Authorization is redacted; other headers are as sent");
    }
}
