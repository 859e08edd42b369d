package lab.continuationreplay.core.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test peer, not a mock: a raw {@link ServerSocket} on 127.0.0.1 that plays a (mis)behaving HTTP server, one
 * scripted act per connection. It reads each request by its own simple rules (the head up to the blank line, then
 * {@code Content-Length} bytes), independent of the lab's {@code HttpMessages}, keeps the exact bytes, then plays
 * that connection's act. The last act repeats for any further connection.
 */
public final class RawHttpPeer implements AutoCloseable {
    /** What the peer does on one connection once it has read the request. */
    @FunctionalInterface
    public interface Act {
        void play(Socket socket) throws IOException;
    }

    /** How long a test waits for the peer to see something before it gives up (a hang guard, not an assertion). */
    private static final long PATIENCE_SECONDS = 30;

    private final ServerSocket listener;
    private final List<Act> acts;
    private final BlockingQueue<byte[]> requests = new LinkedBlockingQueue<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();

    public RawHttpPeer(Act... acts) throws IOException {
        this.acts = List.of(acts);
        this.listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "raw-http-peer-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port() + "/mcp");
    }

    /** How many connections the peer has accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** The next request the peer read, as its exact bytes (head and body). */
    public byte[] nextRequest() throws InterruptedException {
        byte[] request = requests.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
        if (request == null) {
            throw new AssertionError("the peer received no request");
        }
        return request;
    }

    public String nextRequestText() throws InterruptedException {
        return new String(nextRequest(), StandardCharsets.ISO_8859_1);
    }

    /** Whether another request arrived (for asserting that none did, once the exchanges are over). */
    public byte[] pendingRequestOrNull() {
        return requests.poll();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException closed) {
                return;
            }
            int index = connections.incrementAndGet() - 1;
            open.add(socket);
            Act act = acts.get(Math.min(index, acts.size() - 1));
            Thread connection = new Thread(() -> {
                try (socket) {
                    requests.add(readRequest(socket.getInputStream()));
                    act.play(socket);
                } catch (IOException ignored) {
                    // the client went away; the test sees what it saw
                } finally {
                    open.remove(socket);
                }
            }, "raw-http-peer-connection-" + index);
            connection.setDaemon(true);
            connection.start();
        }
    }

    /** The head up to CRLF CRLF, then as many body bytes as its Content-Length says (none without one). */
    static byte[] readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the end of the request head");
            }
            bytes.write(b);
            matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
        }
        int length = 0;
        for (String line : bytes.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        bytes.write(in.readNBytes(length));
        return bytes.toByteArray();
    }

    // The acts.

    /** Writes {@code response} and keeps the connection open until the client closes it. */
    public static Act respond(String response) {
        return respond(response.getBytes(StandardCharsets.UTF_8));
    }

    public static Act respond(byte[] response) {
        return socket -> {
            OutputStream out = socket.getOutputStream();
            out.write(response);
            out.flush();
            awaitClientClose(socket);
        };
    }

    /** Writes {@code response}, then closes: the end of the connection is the end of the response. */
    public static Act respondThenClose(String response) {
        return socket -> {
            OutputStream out = socket.getOutputStream();
            out.write(response.getBytes(StandardCharsets.UTF_8));
            out.flush();
            socket.shutdownOutput();
            awaitClientClose(socket);
        };
    }

    /** Closes at once, without a byte. */
    public static Act closeAtOnce() {
        return socket -> socket.shutdownOutput();
    }

    /** Resets the connection (RST) without a byte. */
    public static Act resetAtOnce() {
        return socket -> socket.setSoLinger(true, 0);
    }

    /** Writes nothing and waits for the client to give up. */
    public static Act stall() {
        return RawHttpPeer::awaitClientClose;
    }

    /** Reads until the client closes its side or the connection ends. */
    private static void awaitClientClose(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // discard
            }
        } catch (IOException ended) {
            // reset or closed: either way the client is gone
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : new ArrayList<>(open)) {
            socket.close();
        }
    }
}
