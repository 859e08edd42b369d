package lab.continuationreplay.core.relay;

import lab.continuationreplay.core.wire.HttpRelay;
import lab.continuationreplay.core.wire.ExchangePlan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpMessages;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP relay in front of the guarded Java server over Streamable HTTP, as {@code lab clients} puts it: the server
 * is given its own Host (it refuses the relay's with 403, so every answer here shows it got its own), the Nth continuation's response is kept from the client by closing
 * its connection, and only that one. Plain sockets on the client side, so nothing retries or hides a closed connection.
 */
class HttpRelayDropIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private record Answer(int status, String body) {}

    @Test
    void theServerSeesItsOwnHostAndOnlyTheNthContinuationsResponseIsKeptFromTheClient() throws Exception {
        Path home = LabHome.resolve();
        try (BearerCredentials credentials = new BearerCredentials()) {
            String token = credentials.token("alice");
            Map<String, String> environment = new LinkedHashMap<>(WireSettings.matrix(dir.resolve("store.sqlite3"), "alice").environment());
            environment.remove("WIRE_PRINCIPAL");
            environment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice").toString());
            environment.putAll(ServerKind.JAVA.environment(home));
            HttpServerProcess server = HttpServerProcess.start("java server", ServerKind.JAVA.command(home), environment,
                    dir.resolve("server.transcript.log"), dir.resolve("server.stdout.log"), dir.resolve("server.stderr.log"),
                    TIMEOUT, token, credentials.principalsByToken());
            ContinuationReplyDrop plan = new ContinuationReplyDrop(2);
            HttpRelay relay = HttpRelay.start(server.exchanges().endpoint(), server.transcript(), plan, TIMEOUT,
                    credentials.principalsByToken());
            try {
                URI endpoint = relay.endpoint();
                try (Socket client = new Socket(endpoint.getHost(), endpoint.getPort())) {
                    InputStream in = new BufferedInputStream(client.getInputStream());
                    OutputStream out = client.getOutputStream();
                    Answer discover = exchange(in, out, endpoint, token, frame(1, "server/discover", JsonNodeFactory.instance.objectNode()));
                    assertEquals(200, discover.status(), "the relay's own Host would be refused with 403: " + discover.body());
                    Answer first = exchange(in, out, endpoint, token, frame(2, "tools/call", continuation()));
                    // the server refuses a continuation without requestState (a JSON-RPC error, HTTP 400): an answer all the same
                    assertTrue(first.body().contains("\"id\":2"), "the first continuation is answered: " + first.body());
                    send(out, endpoint, token, frame(3, "tools/call", JsonNodeFactory.instance.objectNode().put("name", "get_operation_status")));
                    assertTrue(read(in).body().contains("\"id\":3"), "a call without inputResponses is no continuation");
                    send(out, endpoint, token, frame("c-4", "tools/call", continuation()));
                    assertThrows(EOFException.class, () -> read(in), "the second continuation's connection ends without a response");
                }
                try (Socket again = new Socket(endpoint.getHost(), endpoint.getPort())) {
                    Answer later = exchange(new BufferedInputStream(again.getInputStream()), again.getOutputStream(), endpoint, token,
                            frame(5, "tools/call", continuation()));
                    assertTrue(later.body().contains("\"id\":5"), "only one response is kept: " + later.body());
                }
                assertEquals("\"c-4\"", plan.droppedId(relay.events()).orElseThrow().toString());
                assertEquals(List.of(HttpRelay.DROP_RESPONSE), relay.events().stream().map(HttpRelay.Event::action).toList());
            } finally {
                relay.close();
                server.close();
            }
            List<Transcript.Line> lines = Transcript.read(dir.resolve("server.transcript.log"));
            String clientHost = "127.0.0.1:" + relay.endpoint().getPort();
            long heads = lines.stream().filter(l -> l.kind() == Transcript.Kind.HEAD && l.direction() == Transcript.Direction.SENT).count();
            assertEquals(5, heads, "every request reached the server, the dropped one too");
            for (Transcript.Line line : lines) {
                if (line.kind() == Transcript.Kind.HEAD && line.direction() == Transcript.Direction.SENT) {
                    // the head as the client sent it; only the bytes to the server carry the server's own Host
                    assertTrue(line.text().contains("[\"Host\",\"" + clientHost + "\"]"), line.text());
                }
                assertTrue(!line.text().contains(token), "no token in the transcript");
            }
            long responses = lines.stream().filter(l -> l.kind() == Transcript.Kind.HEAD && l.direction() == Transcript.Direction.RECEIVED).count();
            assertEquals(5, responses, "the server answered the dropped request too");
        }
    }

    @Test
    void continuationsCountFromOne() {
        assertThrows(IllegalArgumentException.class, () -> new ContinuationReplyDrop(0));
    }

    @Test
    void nothingIsDroppedWhenTheRelayDidNotDropIt() {
        ContinuationReplyDrop plan = new ContinuationReplyDrop(1);
        byte[] body = frame(7, "tools/call", continuation()).toString().getBytes(StandardCharsets.UTF_8);
        assertTrue(plan.decide(1, null, "not json".getBytes(StandardCharsets.UTF_8)) instanceof ExchangePlan.Forward);
        assertTrue(plan.decide(2, null, body) instanceof ExchangePlan.DropResponse);
        assertTrue(plan.droppedId(List.of()).isEmpty(), "a server that never answered left nothing to drop");
        assertTrue(plan.droppedId(List.of(new HttpRelay.Event(3, HttpRelay.DROP_RESPONSE, "another exchange"))).isEmpty());
        assertEquals("7", plan.droppedId(List.of(new HttpRelay.Event(2, HttpRelay.DROP_RESPONSE, ""))).orElseThrow().toString());
    }

    private static ObjectNode continuation() {
        ObjectNode params = JsonNodeFactory.instance.objectNode().put("name", "create_guarded_issue");
        params.putObject("arguments").put("operation_id", "relay-drop").put("title", "t").put("mode", "atomic");
        params.putObject("inputResponses").putObject("body").put("action", "accept").putObject("content").put("body", "alpha");
        return params;
    }

    private static ObjectNode frame(Object id, String method, ObjectNode params) {
        ObjectNode frame = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        frame.set("id", id instanceof String s ? JsonNodeFactory.instance.textNode(s) : JsonNodeFactory.instance.numberNode((Integer) id));
        frame.put("method", method);
        ObjectNode withMeta = params.deepCopy();
        withMeta.set("_meta", WireEnvelope.meta());
        frame.set("params", withMeta);
        return frame;
    }

    private static Answer exchange(InputStream in, OutputStream out, URI endpoint, String token, ObjectNode frame) throws Exception {
        send(out, endpoint, token, frame);
        return read(in);
    }

    private static void send(OutputStream out, URI endpoint, String token, ObjectNode frame) throws Exception {
        byte[] body = frame.toString().getBytes(StandardCharsets.UTF_8);
        String method = frame.path("method").asText();
        String head = "POST " + endpoint.getRawPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                + "\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
                + "\r\nMCP-Protocol-Version: " + WireEnvelope.PROTOCOL_VERSION + "\r\nMcp-Method: " + method
                + (method.equals("tools/call") ? "\r\nMcp-Name: " + frame.path("params").path("name").asText() : "")
                + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    private static Answer read(InputStream in) throws Exception {
        String status = HttpMessages.line(in);
        List<Header> headers = HttpMessages.headers(in);
        return new Answer(Integer.parseInt(status.split(" ")[1]), new String(HttpMessages.body(in, headers, false), StandardCharsets.UTF_8));
    }
}
