package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The frames of an event stream: each event's {@code data:} lines joined by line feeds, whatever ends the lines. */
class EventStreamTest {
    @Test
    void oneEventWithOneDataLineIsOneFrame() {
        assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"id\":1}"), EventStream.data("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1}\n\n"));
    }

    @Test
    void theDataLinesOfOneEventAreJoinedByLineFeeds() {
        assertEquals(List.of("{\"jsonrpc\":\"2.0\",\n\"id\":1}"), EventStream.data("data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1}\n\n"));
    }

    @Test
    void everyEventIsAFrameOfItsOwnInOrder() {
        assertEquals(List.of("a", "b", "c"), EventStream.data("data: a\n\ndata: b\n\nid: 3\ndata: c\n\n"));
    }

    @Test
    void crlfAndBareCrEndLinesAsLineFeedsDo() {
        assertEquals(List.of("a\nb", "c"), EventStream.data("data: a\r\ndata: b\r\n\r\ndata: c\r\r"));
        assertEquals(List.of("x", "y"), EventStream.data("data: x\r\n\ndata: y\n\r\n"));
    }

    @Test
    void commentsAreNotData() {
        assertEquals(List.of("a"), EventStream.data(": keep-alive\n\n:\ndata: a\n: in the middle\n\n"));
    }

    @Test
    void anEventWithoutDataIsNoFrame() {
        assertEquals(List.of(), EventStream.data("event: ping\nid: 1\nretry: 500\n\n"));
        assertEquals(List.of("a"), EventStream.data("event: ping\n\ndata: a\n\n"));
    }

    @Test
    void otherFieldsAndFieldsThatOnlyStartLikeDataAreIgnored() {
        assertEquals(List.of("a"), EventStream.data("database: x\nevent: message\nid: 7\ndata: a\n\n"));
    }

    @Test
    void exactlyOneSpaceAfterTheColonIsDropped() {
        assertEquals(List.of("a", " b", "c "), EventStream.data("data:a\n\ndata:  b\n\ndata: c \n\n"));
    }

    @Test
    void anEmptyDataLineIsAnEmptyFrame() {
        assertEquals(List.of(""), EventStream.data("id: 0\ndata:\n\n"));
        assertEquals(List.of("", ""), EventStream.data("data: \n\ndata:\n\n"));
        assertEquals(List.of("\na"), EventStream.data("data:\ndata: a\n\n"));
    }

    @Test
    void aDataLineWithoutAColonIsADataFieldWithAnEmptyValueAsTheEventStreamFormatSays() {
        assertEquals(List.of(""), EventStream.data("data\n\n"));
        assertEquals(List.of("a\n\nb"), EventStream.data("data: a\ndata\ndata: b\n\n"));
        assertEquals(List.of(), EventStream.data("datum\n\n"));
    }

    @Test
    void theLastEventCountsWithoutItsBlankLine() {
        assertEquals(List.of("a", "b"), EventStream.data("data: a\n\ndata: b\n"));
        assertEquals(List.of("b"), EventStream.data("data: b"));
    }

    @Test
    void blankLinesAloneAndAnEmptyStreamHoldNoFrame() {
        assertEquals(List.of(), EventStream.data(""));
        assertEquals(List.of(), EventStream.data("\n\n\r\n"));
    }
}
