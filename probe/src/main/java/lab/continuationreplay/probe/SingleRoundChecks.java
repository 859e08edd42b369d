package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.wire.WireEnvelope;

/**
 * The checks on a tool that completes in one round, on the runner's connection and calls: s2, s3, s4 and s5 are the
 * runner's own code shared with p2a, p3, p7 and p8; s6, s6b, s7 (a key), s8 (fresh calls at once), s9 (two processes)
 * and r1 (redelivery at 2025-11-25) are here.
 */
final class SingleRoundChecks {
    private final ProbeRunner r;

    SingleRoundChecks(ProbeRunner runner) {
        this.r = runner;
    }

    /**
     * The checks on a tool that completes in one round, where the call itself is all a retry can send again. Those
     * that count new effects per call need {@code {{fresh}}} in the arguments: without it every call is the same one.
     */
    void play(JsonNode tool) {
        boolean fresh = FreshValues.used(r.options.arguments());
        r.lostReply("s2", 1);
        r.race("s3", 1);
        if (fresh) {
            r.newCall("s5");
            freshRace("s8");
            twoProcesses("s9");
        } else {
            for (String check : List.of("s5", "s8", "s9")) {
                r.history.note(check, "not-applicable", "the arguments hold no {{fresh}} value, so every call is the same call");
            }
        }
        if (r.options.key() == null) {
            for (String check : List.of("s6", "s6b", "s7")) {
                r.history.note(check, "not-applicable", "no idempotency key: give --key-arg NAME");
            }
        } else {
            keyWithChangedArguments("s6", tool);
            keyUnderAnotherPrincipal("s6b");
            keyWhileRunning("s7");
        }
        redelivery("r1");
        r.restartThenRetry("s4", 1);
    }

    /**
     * r1: the call's event stream closed right after its priming event, the reply unread; a second later GET with
     * {@code Last-Event-ID} resumes it and is read until quiet for two seconds; then the same call again, as s2.
     */
    void redelivery(String check) {
        String notApplicable = !(r.connection instanceof HttpConnection) ? "redelivery is a Streamable HTTP rule; this server speaks stdio"
                : !r.legacy ? "at 2026-07-28 a call's response is never redelivered (SEP-2575)"
                : !ProbeRunner.REDELIVERY_VERSION.equals(r.version) ? "priming events and redelivery come with " + ProbeRunner.REDELIVERY_VERSION + "; the server speaks " + r.version
                : ((HttpConnection) r.connection).session() == null ? "the server is stateless (no Mcp-Session-Id): it keeps no stream to resume"
                : null;
        if (notApplicable != null) {
            r.history.note(check, "not-applicable", notApplicable);
            return;
        }
        HttpConnection http = (HttpConnection) r.connection;
        r.observe(check, "before");
        ObjectNode params = WireEnvelope.toolCall(r.options.tool(), r.arguments(), null, null);
        ObjectNode call = r.frame("tools/call", params);
        HttpConnection.Opened opened = http.openThenClose(call);
        r.history.exchange(check, "round-1", opened.exchange(), false);
        if (opened.primingId() == null) {
            String type = opened.contentType() == null ? "" : opened.contentType().toLowerCase(java.util.Locale.ROOT);
            r.history.note(check, "not-applicable", opened.exchange().reply() == null && type.isEmpty() ? "the call got no response: "
                    + opened.exchange().failure() : type.startsWith("text/event-stream") ? "no event id came before the response"
                    : "the response came as " + (type.isEmpty() ? "a body without a type" : opened.contentType()) + ", not an event stream");
            return;
        }
        ProbeRunner.pause(java.time.Duration.ofSeconds(1)); // the tool goes on without its stream; by now it has answered into the store
        r.history.resumed(check, opened.primingId(), http.resume(opened.primingId(), call.get("id")));
        r.history.exchange(check, "retry", r.connection.send(r.frame("tools/call", params)), false);
        r.observe(check, "after");
    }

    /** s6: a committed call's key sent r.again with r.other arguments (the key argument kept). */
    void keyWithChangedArguments(String check, JsonNode tool) {
        String fresh = r.fresh();
        JsonNode arguments = FreshValues.apply(r.options.arguments(), fresh);
        JsonNode changed = r.options.changedArguments() != null ? FreshValues.apply(r.options.changedArguments(), fresh)
                : ProbeRunner.changedArguments(arguments, r.options.arguments(), tool.path("inputSchema"));
        if (changed == null) {
            r.history.note(check, "not-applicable", "no argument but the key to change; give --changed-args");
            return;
        }
        r.observe(check, "before");
        r.playCall(check, arguments, false);
        r.observe(check, "committed");
        r.history.exchange(check, "replay", r.connection.send(r.frame("tools/call", WireEnvelope.toolCall(r.options.tool(), changed, null, null))), false);
        r.observe(check, "after");
    }

    /** s6b: a committed call sent r.again, the same key and arguments, by another principal. */
    void keyUnderAnotherPrincipal(String check) {
        ProbeConnection stranger = r.other.get();
        if (stranger == null) {
            r.history.note(check, "not-applicable", "no other principal: give --other-env K=V (stdio) or --other-header (HTTP)");
            return;
        }
        try {
            r.answering(stranger);
            if (r.legacy) {
                r.handshake.initialize(check, "the era found at the start", stranger);
            }
            r.observe(check, "before");
            List<ProbeRunner.Round> played = r.playCall(check, r.arguments(), false);
            r.observe(check, "committed");
            r.history.exchange(check, "other principal", stranger.send(r.frame("tools/call", played.get(0).params())), false);
            r.observe(check, "after");
        } finally {
            stranger.close();
        }
    }

    /** s7: a slow call, and half a second later the same key r.again, while the first is unanswered. */
    void keyWhileRunning(String check) {
        if (r.options.key().slowArguments() == null) {
            r.history.note(check, "not-applicable", "no --slow-args: a single-round tool has committed before its reply can be held");
            return;
        }
        JsonNode slow = FreshValues.apply(r.options.key().slowArguments(), r.fresh());
        r.observe(check, "before");
        ObjectNode first = r.frame("tools/call", WireEnvelope.toolCall(r.options.tool(), slow, null, null));
        ObjectNode repeat = r.frame("tools/call", WireEnvelope.toolCall(r.options.tool(), slow, null, null));
        java.util.concurrent.CompletableFuture<Exchange> running = java.util.concurrent.CompletableFuture.supplyAsync(() -> r.connection.send(first));
        ProbeRunner.pause(java.time.Duration.ofMillis(500));
        Exchange second = r.connection.send(repeat);
        r.history.exchange(check, "slow", running.join(), false);
        r.history.exchange(check, "again", second, false);
        r.observe(check, "after");
    }

    /**
     * s9: a second process of the same command and environment (what two client applications configured with one
     * server run), ten calls on each, alternating: every acknowledged effect must be kept in the store they share.
     */
    void twoProcesses(String check) {
        if (r.again == null) {
            r.history.note(check, "not-applicable", "two processes of one server need --command");
            return;
        }
        if (r.options.observer() instanceof ProbeOptions.Observer.ToolCount) {
            r.history.note(check, "not-applicable", "--effects-tool sees one process; give --effects-sqlite or --effects-cmd");
            return;
        }
        ProbeConnection second = r.again.apply("second");
        try {
            r.answering(second);
            if (r.legacy) {
                r.handshake.initialize(check, "the era found at the start", second);
            }
            r.observe(check, "before");
            for (int i = 0; i < 20; i++) {
                ProbeConnection on = i % 2 == 0 ? r.connection : second;
                Exchange call = on.send(r.frame("tools/call", WireEnvelope.toolCall(r.options.tool(), r.arguments(), null, null)));
                r.history.exchange(check, i % 2 == 0 ? "process-a" : "process-b", call, false);
                if (i < 2) {
                    r.observe(check, i == 0 ? "first-a" : "first-b");
                }
            }
            r.observe(check, "after");
        } finally {
            second.close();
        }
    }

    /** s8: twenty calls at once, each with fresh values of its own: every acknowledged call's effect must be kept. */
    void freshRace(String check) {
        r.observe(check, "before");
        List<ObjectNode> frames = new ArrayList<>();
        for (int i = 0; i < ProbeRunner.RACE; i++) {
            frames.add(r.frame("tools/call", WireEnvelope.toolCall(r.options.tool(), r.arguments(), null, null)));
        }
        r.connection.sendTogether(frames).forEach(e -> r.history.exchange(check, "race", e, false));
        r.observe(check, "after");
    }
}
