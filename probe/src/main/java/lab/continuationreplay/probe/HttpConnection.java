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
import java.util.stream.Collectors;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.EventStream;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A Streamable HTTP server by URL: each request one POST on a connection of its own, its response read whole (a JSON
 * body or an event stream), every byte in the transcript but the values of the user's headers, which go to this URL
 * only and are shown in the transcript by their length.
 */
final class HttpConnection implements ProbeConnection {
    private final HttpExchanges exchanges;
    private final Transcript transcript;
    private final List<Header> userHeaders;
    private final ProbeClock clock;

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
            exchanges.cutAfterRequest("POST", headers(frame), frame.toString().getBytes(StandardCharsets.UTF_8));
            return new Exchange(frame, null, "cut: the connection closed right after the request", at, clock.millis() - at);
        } catch (TransportFailure e) {
            return new Exchange(frame, null, e.getMessage(), at, clock.millis() - at);
        }
    }

    @Override
    public Exchange send(ObjectNode frame) {
        long at = clock.millis();
        try {
            HttpExchanges.Response response = exchanges.exchange("POST", headers(frame), frame.toString().getBytes(StandardCharsets.UTF_8));
            ObjectNode reply = reply(response, frame.get("id"));
            if (reply == null) {
                return new Exchange(frame, null, "HTTP " + response.status() + " without a JSON-RPC reply to this request: "
                        + abbreviated(response.text()), at, clock.millis() - at);
            }
            return new Exchange(frame, reply, null, at, clock.millis() - at);
        } catch (TransportFailure e) {
            return new Exchange(frame, null, e.getMessage(), at, clock.millis() - at);
        }
    }

    private List<Header> headers(ObjectNode frame) {
        String method = frame.path("method").asText();
        List<Header> headers = new ArrayList<>();
        headers.add(new Header("Content-Type", "application/json"));
        headers.add(new Header("Accept", "application/json, text/event-stream"));
        headers.add(new Header("MCP-Protocol-Version", WireEnvelope.PROTOCOL_VERSION));
        headers.add(new Header("Mcp-Method", method));
        if (method.equals("tools/call")) {
            headers.add(new Header("Mcp-Name", frame.path("params").path("name").asText()));
        }
        headers.addAll(userHeaders);
        return headers;
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

    /** The reply with {@code id} in a JSON body or in an event stream's data lines, or null. */
    static ObjectNode reply(HttpExchanges.Response response, JsonNode id) {
        String type = response.header("Content-Type");
        List<String> candidates = type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")
                ? EventStream.data(response.text()) : List.of(response.text());
        for (String candidate : candidates) {
            try {
                if (ExactJson.parse(candidate) instanceof ObjectNode frame && frame.has("id") && id.toString().equals(frame.get("id").toString())
                        && (frame.has("result") || frame.has("error"))) {
                    return frame;
                }
            } catch (IllegalArgumentException notJson) {
                // not a frame; the transcript has it
            }
        }
        return null;
    }

    private static String abbreviated(String text) {
        String line = text.strip().replace('\n', ' ');
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }

    @Override
    public void close() {
        transcript.close();
    }
}
