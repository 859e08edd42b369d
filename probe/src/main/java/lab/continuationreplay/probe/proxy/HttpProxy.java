package lab.continuationreplay.probe.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.BindException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.wire.ExchangePlan;
import lab.continuationreplay.core.wire.HttpMessages;
import lab.continuationreplay.core.wire.HttpRelay;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.JsonRpcFrames;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.probe.ProbeInputException;

/**
 * The HTTP proxy: listens on 127.0.0.1 in front of one Streamable HTTP server, relays every exchange (the recording
 * {@link HttpRelay}), and keeps the chosen completing reply from the client: with {@code final-reply} the client's
 * connection stays open and silent (its own timeout ends the wait); with {@code connection-after-commit} it is
 * closed without the response. Header values other than the protocol's own never reach the transcript.
 */
final class HttpProxy implements ProxySession {
    /** Headers whose values say nothing secret and help a reader; every other value is replaced by its length. */
    private static final Set<String> SHOWN = Set.of("accept", "content-type", "content-length", "host", "user-agent",
            "mcp-protocol-version", "mcp-session-id", "last-event-id", "connection");
    /** How long a held or idle client connection may stay open: the proxy is ended by --calls or SIGTERM, not by this. */
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(30);
    /** After the last call, the response still has to be written to the client before the relay closes. */
    private static final long STOP_DELAY_MS = 500;

    private final ProxyOptions.Http upstream;
    private final ProxyOptions.Loss loss;
    private final ProxyHistory history;
    private final LossRule rule;
    private final CompletableFuture<String> ending = new CompletableFuture<>();
    private Transcript transcript;
    private HttpRelay relay;

    HttpProxy(ProxyOptions options, ProxyHistory history, LossRule rule) {
        this.upstream = (ProxyOptions.Http) options.upstream();
        this.loss = options.loss();
        this.history = history;
        this.rule = rule;
    }

    @Override
    public void start() throws IOException {
        transcript = new Transcript(history.file(ProxyHistory.TRANSCRIPT));
        try {
            relay = HttpRelay.start(upstream.listenPort(), upstream.loopback(), transcript, this::decide, READ_TIMEOUT, HttpProxy::redacted);
        } catch (BindException e) {
            transcript.close();
            throw new ProbeInputException("--listen " + upstream.listenPort() + ": cannot listen there (" + e.getMessage()
                    + "); give a free port, or 0 for any");
        }
        ObjectNode started = history.event("start", System.currentTimeMillis());
        started.put("endpoint", relay.endpoint().toString());
        history.append(started);
        System.err.println("lab proxy: listening on " + relay.endpoint() + " in front of " + upstream.url());
    }

    /** The proxy's endpoint, once started. */
    java.net.URI endpoint() {
        return relay.endpoint();
    }

    @Override
    public CompletableFuture<String> ending() {
        return ending;
    }

    private ExchangePlan.Action decide(int exchange, HttpHead request, byte[] body) {
        ObjectNode event = history.event("request", System.currentTimeMillis());
        event.put("exchange", exchange);
        history.append(event);
        for (JsonNode frame : JsonRpcFrames.ofBody(body)) {
            rule.clientFrame("x" + exchange, frame);
        }
        return new ExchangePlan.InspectEvents(this::onResponse, new Streams(exchange));
    }

    /**
     * An event stream's events as they pass: each one's frames counted by the loss rule; the one that completes the
     * chosen call is lost with everything after it (the events before it, a priming event among them, reach the
     * client, so a client of 2025-11-25 can resume the stream upstream with {@code Last-Event-ID}). The stream's
     * response event is written when it ends, stamped with the time of the loss or of its last frame.
     */
    private final class Streams implements ExchangePlan.EventRule {
        private final int exchange;
        private boolean lose;
        private boolean stop;
        private Integer completing;
        private long at = System.currentTimeMillis();

        Streams(int exchange) {
            this.exchange = exchange;
        }

        @Override
        public synchronized ExchangePlan.Action event(int exchange, int status, byte[] event) {
            List<JsonNode> frames = JsonRpcFrames.ofBody(event);
            for (JsonNode frame : frames) {
                LossRule.Decision decision = rule.serverFrame("x" + exchange, frame);
                if (!lose) {
                    at = System.currentTimeMillis();
                }
                lose |= decision.lose();
                stop |= decision.stop();
                completing = decision.completing() != null ? decision.completing() : completing;
            }
            return !lose ? ExchangePlan.FORWARD : loss == ProxyOptions.Loss.FINAL_REPLY ? new ExchangePlan.HoldResponse(left -> { })
                    : new ExchangePlan.DropResponse();
        }

        @Override
        public synchronized void ended(int exchange, int status, boolean clientClosed) {
            String action = !lose ? "forwarded" : loss == ProxyOptions.Loss.FINAL_REPLY ? "held" : "dropped";
            responded(exchange, status, action, completing, stop, at);
            if (lose && loss == ProxyOptions.Loss.FINAL_REPLY && clientClosed) {
                ObjectNode closed = history.event("client_closed", System.currentTimeMillis());
                closed.put("exchange", exchange);
                history.append(closed);
            }
        }
    }

    private void responded(int exchange, int status, String action, Integer completing, boolean stop, long at) {
        ObjectNode event = history.event("response", at);
        event.put("exchange", exchange);
        event.put("status", status);
        event.put("action", action);
        if (completing != null) {
            event.put("completing", completing);
        }
        history.append(event);
        if (stop) {
            CompletableFuture.delayedExecutor(STOP_DELAY_MS, TimeUnit.MILLISECONDS).execute(() -> ending.complete("calls"));
        }
    }

    private ExchangePlan.Action onResponse(int exchange, int status, byte[] body) {
        boolean lose = false;
        boolean stop = false;
        Integer completing = null;
        for (JsonNode frame : JsonRpcFrames.ofBody(body)) {
            LossRule.Decision decision = rule.serverFrame("x" + exchange, frame);
            lose |= decision.lose();
            stop |= decision.stop();
            completing = decision.completing() != null ? decision.completing() : completing;
        }
        String action = !lose ? "forwarded" : loss == ProxyOptions.Loss.FINAL_REPLY ? "held" : "dropped";
        responded(exchange, status, action, completing, stop, System.currentTimeMillis());
        return !lose ? ExchangePlan.FORWARD : loss == ProxyOptions.Loss.FINAL_REPLY ? new ExchangePlan.HoldResponse(byClient -> {
            if (byClient) {
                ObjectNode closed = history.event("client_closed", System.currentTimeMillis());
                closed.put("exchange", exchange);
                history.append(closed);
            }
        }) : new ExchangePlan.DropResponse();
    }

    @Override
    public Integer close(long graceMs) {
        relay.close();
        transcript.close();
        return null;
    }

    /** Every header by name; its value only when it is one of the protocol's, else its length (a credential, a cookie, a key). */
    static List<Header> redacted(List<Header> headers) {
        List<Header> shown = new ArrayList<>();
        for (Header header : headers) {
            String name = header.name().toLowerCase(Locale.ROOT);
            if (SHOWN.contains(name)) {
                shown.add(header);
                continue;
            }
            // the relay's own form: a scheme kept, the credential shown by its length (no token of the lab's is known here)
            String value = name.equals("authorization") ? HttpMessages.redact(header.value(), Map.of())
                    : "[redacted, " + header.value().length() + " characters]";
            shown.add(new Header(header.name(), value));
        }
        return shown;
    }
}
