package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.EventStream;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A Streamable HTTP server by URL: each request one POST on a connection of its own, its event stream read as it
 * arrives (a request from the server on it is answered by a POST of its own) and its reply taken from it or from a
 * JSON body. Before 2026-07-28 the connection keeps what {@code initialize} fixed, the version and the session
 * ({@code Mcp-Session-Id}), and ends the session on close. Every byte is in the transcript but the values of the
 * user's headers, which go to this URL only and are shown in the transcript by their length.
 */
final class HttpConnection implements ProbeConnection {
    private final HttpExchanges exchanges;
    private final Transcript transcript;
    private final List<Header> userHeaders;
    private final ProbeClock clock;
    private volatile BiFunction<String, JsonNode, JsonNode> responder;
    /** Whether any HTTP response came back: a server that answers, even with an error, is there. */
    private volatile boolean heard;
    private volatile boolean legacy;
    private volatile String version = WireEnvelope.PROTOCOL_VERSION;
    private volatile String session;

    /** A connection sending {@code headers}: the target's own, or another principal's ({@link ProbeOptions.Target.Url#asOther}). */
    HttpConnection(ProbeOptions.Target.Url target, List<Header> headers, Path transcriptFile, Duration timeout, ProbeClock clock) {
        this.transcript = new Transcript(transcriptFile);
        this.userHeaders = List.copyOf(headers);
        this.clock = clock;
        Set<String> secret = java.util.stream.Stream.concat(target.headers().stream(), target.otherHeaders().stream())
                .map(h -> h.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        try {
            this.exchanges = new HttpExchanges(target.url(), transcript, timeout,
                    new HttpExchanges.Options(Map.of(), secret, target.remoteAllowed()), "server");
        } catch (IllegalArgumentException e) {
            transcript.close();
            throw new ProbeInputException("--url " + target.url() + ": " + e.getMessage() + (target.remoteAllowed() ? ""
                    : "; a server elsewhere needs --allow-remote"));
        }
    }

    @Override
    public Exchange cut(ObjectNode frame, ObjectNode cancelled) {
        long at = clock.millis();
        try {
            exchanges.cutAfterRequest("POST", headers(frame), bytes(frame));
            return new Exchange(frame, null, "cut: the connection closed right after the request", at, clock.millis() - at);
        } catch (TransportFailure e) {
            return new Exchange(frame, null, e.getMessage(), at, clock.millis() - at);
        }
    }

    @Override
    public Exchange send(ObjectNode frame) {
        long at = clock.millis();
        try {
            HttpExchanges.Response response = exchanges.stream("POST", headers(frame), bytes(frame), this::answerServerRequest, null)
                    .response();
            heard = true;
            ObjectNode reply = reply(response, frame.get("id"));
            if (reply == null) {
                return new Exchange(frame, null, withoutReply(response), at, clock.millis() - at);
            }
            if (frame.path("method").asText().equals("initialize") && reply.path("result").path("protocolVersion").isTextual()) {
                // the handshake fixes this connection's era and session, as a client library keeps them
                version = reply.path("result").path("protocolVersion").textValue();
                session = response.header("Mcp-Session-Id");
                legacy = true;
            }
            return new Exchange(frame, reply, null, at, clock.millis() - at);
        } catch (TransportFailure e) {
            return new Exchange(frame, null, e.getMessage(), at, clock.millis() - at);
        }
    }

    private static String withoutReply(HttpExchanges.Response response) {
        return "HTTP " + response.status() + " without a JSON-RPC reply to this request: " + abbreviated(response.text());
    }

    /**
     * The headers of a POST: at 2026-07-28 the version and the method (and a tool's name) on each request; before it,
     * the negotiated version and the session after initialize, as a client library sends them.
     */
    private List<Header> headers(ObjectNode frame) {
        String method = frame.path("method").asText();
        List<Header> headers = new ArrayList<>();
        headers.add(new Header("Content-Type", "application/json"));
        headers.add(new Header("Accept", "application/json, text/event-stream"));
        if (method.equals("initialize")) {
            // the handshake itself carries neither: the version is what it negotiates, the session what it opens
        } else if (!legacy) {
            headers.add(new Header("MCP-Protocol-Version", WireEnvelope.PROTOCOL_VERSION));
            if (!method.isEmpty()) {
                headers.add(new Header("Mcp-Method", method));
            }
            if (method.equals("tools/call")) {
                headers.add(new Header("Mcp-Name", frame.path("params").path("name").asText()));
            }
        } else {
            sessionHeaders(headers);
        }
        headers.addAll(userHeaders);
        return headers;
    }

    private void sessionHeaders(List<Header> headers) {
        headers.add(new Header("MCP-Protocol-Version", version));
        if (session != null) {
            headers.add(new Header("Mcp-Session-Id", session));
        }
    }

    @Override
    public List<Exchange> sendTogether(List<ObjectNode> frames) {
        ExecutorService pool = Executors.newFixedThreadPool(frames.size());
        try {
            List<CompletableFuture<Exchange>> sent = frames.stream()
                    .map(frame -> CompletableFuture.supplyAsync(() -> send(frame), pool)).toList();
            return sent.stream().map(CompletableFuture::join).toList();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A request the server sends on the open stream of a call (before 2026-07-28 a server asks for input that way): the
     * answer goes back in a POST of its own while the stream stays open, as a client library does.
     */
    private boolean answerServerRequest(HttpExchanges.Event event) {
        JsonNode frame = parse(event.data());
        if (frame instanceof ObjectNode request && request.hasNonNull("id") && request.has("method") && !request.has("result")
                && !request.has("error")) {
            post(ProbeConnection.answer(request, responder));
        }
        return true;
    }

    /** How requests from the server are answered (null: with a method-not-found error). */
    void answerServerRequests(BiFunction<String, JsonNode, JsonNode> responder) {
        this.responder = responder;
    }

    /** A notification or a response to the server, POSTed and answered by a status alone: null, or why it failed. */
    private String post(ObjectNode message) {
        try {
            HttpExchanges.Response response = exchanges.exchange("POST", headers(message), bytes(message));
            heard = true;
            return response.status() / 100 == 2 ? null : "HTTP " + response.status() + ": " + abbreviated(response.text());
        } catch (TransportFailure e) {
            return e.getMessage();
        }
    }

    @Override
    public String notify(ObjectNode notification) {
        return post(notification);
    }

    @Override
    public boolean alive() {
        return heard;
    }

    /** The session the server gave at initialize ({@code Mcp-Session-Id}), or null: a stateless server, or 2026-07-28. */
    String session() {
        return session;
    }

    /**
     * r1's first half: the call POSTed and its event stream read until its first event; when that event has an id and
     * no data (a priming event) the connection is closed at once, the reply unread.
     */
    Opened openThenClose(ObjectNode frame) {
        long at = clock.millis();
        String[] priming = {null};
        boolean[] first = {true};
        try {
            HttpExchanges.Response response = exchanges.stream("POST", headers(frame), bytes(frame), event -> {
                if (first[0] && event.id() != null && !event.id().isEmpty() && (event.data() == null || event.data().isBlank())) {
                    priming[0] = event.id();
                    return false;
                }
                first[0] = false;
                return answerServerRequest(event);
            }, null).response();
            heard = true;
            ObjectNode reply = priming[0] != null ? null : reply(response, frame.get("id"));
            String failure = priming[0] != null ? "closed by the probe after the priming event" : reply == null ? withoutReply(response) : null;
            return new Opened(new Exchange(frame, reply, failure, at, clock.millis() - at), response.header("Content-Type"), priming[0]);
        } catch (TransportFailure e) {
            return new Opened(new Exchange(frame, null, e.getMessage(), at, clock.millis() - at), null, null);
        }
    }

    /** What r1's POST got: the exchange, the response's content type, and the priming event's id (null without one). */
    record Opened(Exchange exchange, String contentType, String primingId) {}

    /**
     * r1's second half: {@code GET} with {@code Last-Event-ID}, the stream read until it ends or is quiet for two
     * seconds; every reply with {@code id} on it is kept, in order, so the checker can count deliveries.
     */
    Resumed resume(String lastEventId, JsonNode id) {
        long at = clock.millis();
        List<Header> headers = new ArrayList<>();
        headers.add(new Header("Accept", "text/event-stream"));
        headers.add(new Header("Last-Event-ID", lastEventId));
        sessionHeaders(headers);
        headers.addAll(userHeaders);
        List<ObjectNode> deliveries = new ArrayList<>();
        try {
            HttpExchanges.Response response = exchanges.stream("GET", headers, new byte[0], event -> {
                ObjectNode reply = reply(event.data(), id);
                if (reply != null) {
                    deliveries.add(reply);
                }
                return answerServerRequest(event);
            }, Duration.ofSeconds(2)).response();
            return new Resumed(response.status(), deliveries, abbreviated(response.text()), null, at, clock.millis() - at);
        } catch (TransportFailure e) {
            return new Resumed(0, deliveries, "", e.getMessage(), at, clock.millis() - at);
        }
    }

    /** What r1's GET got: its status (0 without one), every reply to the call on it, its body abridged, or why none came. */
    record Resumed(int status, List<ObjectNode> deliveries, String text, String failure, long atMs, long elapsedMs) {}

    /** The reply with {@code id} in a JSON body or in an event stream's data lines, or null. */
    static ObjectNode reply(HttpExchanges.Response response, JsonNode id) {
        String type = response.header("Content-Type");
        List<String> candidates = type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")
                ? EventStream.data(response.text()) : List.of(response.text());
        for (String candidate : candidates) {
            ObjectNode frame = reply(candidate, id);
            if (frame != null) {
                return frame;
            }
        }
        return null;
    }

    private static ObjectNode reply(String candidate, JsonNode id) {
        return parse(candidate) instanceof ObjectNode frame && frame.has("id") && id.toString().equals(frame.get("id").toString())
                && (frame.has("result") || frame.has("error")) ? frame : null;
    }

    /** A frame, or null when the text is none (a priming event's empty data, a comment): the transcript has it. */
    private static JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return ExactJson.parse(text);
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }

    private static byte[] bytes(ObjectNode frame) {
        return frame.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String abbreviated(String text) {
        String line = text.strip().replace('\n', ' ');
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }

    /** Ends the session the server gave, if any (DELETE, as a client library does on close), then the transcript. */
    @Override
    public void close() {
        if (session != null) {
            List<Header> headers = new ArrayList<>();
            sessionHeaders(headers);
            headers.addAll(userHeaders);
            try {
                exchanges.exchange("DELETE", headers, new byte[0]);
            } catch (TransportFailure e) {
                // the server is gone already; nothing to end
            }
        }
        transcript.close();
    }
}
