package lab.continuationreplay.core.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import lab.continuationreplay.history.HttpHead.Header;

/**
 * {@link ExchangePlan.InspectEvents} in {@link HttpRelay}: a server's event stream passed to the client event by event
 * as the server writes it, each event judged before it goes on.
 */
final class EventStreamRelay {
    private EventStreamRelay() {}

    /** Where an event stream goes as it arrives (InspectEvents): the client's connection, and who judges each event. */
    record Tap(Socket client, OutputStream out, ExchangePlan.InspectEvents rule) {}

    /** What became of an event stream relayed as it arrived. */
    enum Relayed { FORWARDED, DROPPED, HELD }

    /**
     * The server's event stream to the client, event by event as the server writes it, each judged first: forwarded,
     * or the client's connection closed (drop) or left silent (hold) from that event on. The server's stream is read
     * to its end either way, for the transcript; answers every byte read.
     */
    static Relayed relay(int exchange, int status, String reason, List<Header> headers, InputStream server, Tap tap,
            ByteArrayOutputStream read, java.util.function.Consumer<HttpRelay.Event> events) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        head.writeBytes(("HTTP/1.1 " + status + " " + reason + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        for (Header header : headers) {
            if (!HttpRelay.HOP_BY_HOP.contains(header.name().toLowerCase(Locale.ROOT))) {
                head.writeBytes((header.name() + ": " + header.value() + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        // no length is known: the body runs to the end of the connection
        head.writeBytes("Connection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        Relayed state = Relayed.FORWARDED;
        boolean clientGone = !write(tap, head.toByteArray());
        InputStream body = BodyStream.of(server, headers);
        ByteArrayOutputStream event = new ByteArrayOutputStream();
        for (int b = body.read(); b >= 0; b = body.read()) {
            read.write(b);
            event.write(b);
            if (b != '\n' || !eventEnds(event.toByteArray())) {
                continue;
            }
            if (state == Relayed.FORWARDED && !clientGone) {
                ExchangePlan.Action action = tap.rule().events().event(exchange, status, event.toByteArray());
                if (action instanceof ExchangePlan.DropResponse) {
                    events.accept(new HttpRelay.Event(exchange, HttpRelay.DROP_RESPONSE, "closed the client's connection before an event of the "
                            + status + " stream"));
                    HttpRelay.closeQuietly(tap.client());
                    state = Relayed.DROPPED;
                } else if (action instanceof ExchangePlan.HoldResponse) {
                    events.accept(new HttpRelay.Event(exchange, HttpRelay.HOLD_RESPONSE, "held the " + status + " stream from an event on; the"
                            + " client's connection stays open and silent"));
                    state = Relayed.HELD;
                } else {
                    clientGone = !write(tap, event.toByteArray());
                }
            }
            event.reset();
        }
        return state;
    }

    /** Whether the bytes end with a blank line: an event's end in an event stream. */
    private static boolean eventEnds(byte[] bytes) {
        int n = bytes.length;
        return n >= 2 && bytes[n - 2] == '\n' || n >= 3 && bytes[n - 3] == '\n' && bytes[n - 2] == '\r';
    }

    private static boolean write(Tap tap, byte[] bytes) {
        try {
            tap.out().write(bytes);
            tap.out().flush();
            return true;
        } catch (IOException clientGone) {
            return false;
        }
    }
}
