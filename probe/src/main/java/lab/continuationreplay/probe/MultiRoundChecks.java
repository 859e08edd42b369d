package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The checks only a multi-round tool has, on the runner's connection and calls: p2b (a final round given up at once),
 * p4 and p9 (a committed round replayed with other arguments or answers), p5 (a tampered state), p6 (another
 * principal), p10 (an expired state). p2a, p3, p7 and p8 are the runner's own code, shared with the single-round checks.
 */
final class MultiRoundChecks {
    private final ProbeRunner r;

    MultiRoundChecks(ProbeRunner runner) {
        this.r = runner;
    }

    /**
     * p2b: the final round is sent and given up at once (the stream closed, or notifications/cancelled), then sent
     * again. The observer reads between the two, so the checker can tell a commit from a cancellation.
     */
    void p2b(int rounds) {
        r.observe("p2b", "before");
        ObjectNode last = r.playToFinal("p2b", r.arguments(), rounds);
        if (last == null) {
            return;
        }
        ObjectNode frame = r.frame("tools/call", last);
        Exchange cut = r.connection.cut(frame, r.cancelled(frame.get("id")));
        r.history.exchange("p2b", "cut", cut, cut.reply() != null);
        ProbeRunner.pause(java.time.Duration.ofSeconds(1)); // what the server still does with the cut request, it does now
        r.observe("p2b", "cut");
        r.history.exchange("p2b", "retry", r.connection.send(r.frame("tools/call", last)), false);
        r.observe("p2b", "after");
    }

    /** p10: the final round once the state's lifetime (--state-ttl) has passed. */
    void p10(int rounds) {
        java.time.Duration ttl = r.options.tuning().stateTtl();
        if (ttl == null) {
            r.history.note("p10", "not-applicable", "the server's state lifetime is not given: --state-ttl SECONDS");
            return;
        }
        r.observe("p10", "before");
        ObjectNode last = r.playToFinal("p10", r.arguments(), rounds);
        if (last == null) {
            return;
        }
        r.history.note("p10", "waited", "waiting " + (ttl.toSeconds() + 1) + " s for the state to expire");
        ProbeRunner.pause(ttl.plusSeconds(1));
        r.history.exchange("p10", "expired", r.connection.send(r.frame("tools/call", last)), false);
        r.observe("p10", "after");
    }

    /** p5: the final round with a tampered state in place of the real one, each variant on its own. */
    void p5(int rounds) {
        r.observe("p5", "before");
        ObjectNode last = r.playToFinal("p5", r.arguments(), rounds);
        if (last == null) {
            return;
        }
        if (!last.path("requestState").isTextual()) {
            r.history.note("p5", "not-applicable", "the final round carries no requestState to tamper with");
            return;
        }
        for (StateTampering.Variant variant : StateTampering.variants(last.path("requestState").textValue())) {
            ObjectNode tampered = last.deepCopy();
            tampered.put("requestState", variant.state());
            r.history.exchange("p5", "tampered " + variant.name(), r.connection.send(r.frame("tools/call", tampered)), false);
            r.observe("p5", "after-" + variant.name());
        }
    }

    /** p6: a call's final round sent by another principal (a second stdio process, or r.other headers). */
    void p6(int rounds) {
        ProbeConnection stranger = r.other.get();
        if (stranger == null) {
            r.history.note("p6", "not-applicable", "no other principal: give --other-env K=V (stdio) or --other-header (HTTP)");
            return;
        }
        try {
            r.observe("p6", "before");
            ObjectNode last = r.playToFinal("p6", r.arguments(), rounds);
            if (last != null) {
                r.history.exchange("p6", "other principal", stranger.send(r.frame("tools/call", last)), false);
            }
            r.observe("p6", "after");
        } finally {
            stranger.close();
        }
    }

    /** p4: a committed call's final round r.again, with the state and answers it had but changed arguments. */
    void p4(int rounds, JsonNode tool) {
        String fresh = r.fresh();
        JsonNode changed = r.options.changedArguments() != null ? FreshValues.apply(r.options.changedArguments(), fresh)
                : ProbeRunner.changedArguments(FreshValues.apply(r.options.arguments(), fresh), r.options.arguments(), tool.path("inputSchema"));
        if (changed == null) {
            r.history.note("p4", "not-applicable", "no string argument to change; give --changed-args");
            return;
        }
        replayAfterCommit("p4", rounds, FreshValues.apply(r.options.arguments(), fresh), params -> {
            ObjectNode replay = params.deepCopy();
            replay.set("arguments", changed);
            return replay;
        });
    }

    /** p9: a committed call's final round r.again with changed input responses. */
    void p9(int rounds) {
        replayAfterCommit("p9", rounds, r.arguments(), params -> {
            ObjectNode replay = params.deepCopy();
            if (params.get("inputResponses") instanceof ObjectNode responses) {
                replay.set("inputResponses", InputAnswers.changed(responses));
            }
            return replay;
        });
    }

    void replayAfterCommit(String check, int rounds, JsonNode arguments, java.util.function.UnaryOperator<ObjectNode> change) {
        r.observe(check, "before");
        List<ProbeRunner.Round> played = r.playCall(check, arguments, false);
        r.observe(check, "committed");
        if (played.size() == rounds && !played.get(played.size() - 1).params().path("requestState").isTextual()) {
            // without a state the replay is just a new call with other input: nothing binds it to the first
            r.history.note(check, "not-applicable", "the final round carries no requestState to replay");
            return;
        }
        if (played.size() == rounds && ProbeRunner.Reply.of(played.get(played.size() - 1).exchange()) == ProbeRunner.Reply.COMPLETE) {
            ObjectNode replay = change.apply(played.get(played.size() - 1).params());
            r.history.exchange(check, "replay", r.connection.send(r.frame("tools/call", replay)), false);
        }
        r.observe(check, "after");
    }
}
