package lab.continuationreplay.faults.stall;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One client that sends part of a request and then nothing, and waits for the server to end the connection. The
 * token goes on the wire only; {@link #sent()} shows the bytes with the token replaced by its principal.
 */
final class StalledConnection implements AutoCloseable {
    /** How the connection ended: after how long (from the last byte sent), and what the server sent first, if anything. */
    record Ending(StallKind kind, boolean closedByServer, long millisAfterLastByte, String firstLine) {}

    private final StallKind kind;
    private final Socket socket;
    private final String sent;
    private final long lastByteSent;

    private StalledConnection(StallKind kind, Socket socket, String sent, long lastByteSent) {
        this.kind = kind;
        this.socket = socket;
        this.sent = sent;
        this.lastByteSent = lastByteSent;
    }

    static StalledConnection open(StallKind kind, URI endpoint, String token) throws IOException {
        String host = endpoint.getHost() + ":" + endpoint.getPort();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_operation_status\","
                + "\"arguments\":{\"operation_id\":\"stalled\"}}}";
        String head = "POST " + endpoint.getRawPath() + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer %s\r\n"
                + "Content-Type: application/json\r\n";
        String wire = switch (kind) {
            case HALF_HEAD -> head + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Meth";
            case STALLED_BODY -> head + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: get_operation_status\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body.substring(0, body.length() / 2);
        };
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 5000);
        OutputStream out = socket.getOutputStream();
        out.write(String.format(wire, token).getBytes(StandardCharsets.UTF_8));
        out.flush();
        return new StalledConnection(kind, socket, String.format(wire, "[token of alice]"), System.nanoTime());
    }

    String sent() {
        return sent;
    }

    StallKind kind() {
        return kind;
    }

    /** Waits up to {@code limitMillis} after the last byte sent for the server to end the connection. */
    Ending await(long limitMillis) {
        StringBuilder first = new StringBuilder();
        try {
            InputStream in = socket.getInputStream();
            while (true) {
                long left = limitMillis - (System.nanoTime() - lastByteSent) / 1_000_000;
                if (left <= 0) {
                    return new Ending(kind, false, limitMillis, first.toString());
                }
                socket.setSoTimeout((int) left);
                int b = in.read();
                if (b < 0) {
                    return ended(true, first);
                }
                if (first.length() < 40 && b != '\r' && b != '\n' && !first.toString().endsWith("\n")) {
                    first.append((char) b);
                } else if (b == '\n' && first.length() > 0 && !first.toString().endsWith("\n")) {
                    first.append('\n');
                }
            }
        } catch (SocketTimeoutException e) {
            return new Ending(kind, false, limitMillis, first.toString().strip());
        } catch (IOException reset) {
            return ended(true, first);
        }
    }

    private Ending ended(boolean closed, StringBuilder first) {
        return new Ending(kind, closed, (System.nanoTime() - lastByteSent) / 1_000_000, first.toString().strip());
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed by the server
        }
    }
}
