package lab.continuationreplay.probe.check;

import static lab.continuationreplay.probe.check.Replies.complete;
import static lab.continuationreplay.probe.check.Replies.exchanges;
import static lab.continuationreplay.probe.check.Replies.last;
import static lab.continuationreplay.probe.check.Replies.refused;
import static lab.continuationreplay.probe.check.Replies.shown;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import lab.continuationreplay.probe.check.ProbeCheck.Kind;
import lab.continuationreplay.probe.check.ProbeCheck.Result;
import lab.continuationreplay.probe.check.ProbeCheck.Verdict;

/** The verdicts, one check at a time, from its events. */
final class Judge {
    private final JsonNode plan;
    private final List<JsonNode> events;
    private final Set<String> ignored = new java.util.HashSet<>();
    /** Whether the arguments hold a {{fresh}} value: without one every call is the same call. */
    private final boolean fresh;

    Judge(JsonNode plan, List<JsonNode> events) {
        this.plan = plan;
        this.events = events;
        this.fresh = ProbeCheck.holdsFresh(plan.path("arguments"));
        plan.path("ignore_keys").forEach(k -> ignored.add(k.asText()));
    }

    Result check(String id) {
        String label = id.equals("p1") || id.equals("s1") ? ProbeCheck.FIRST : id;
        List<JsonNode> own = events.stream().filter(e -> e.path("check").asText().equals(label)).toList();
        List<Integer> seq = own.stream().map(e -> e.path("seq").asInt()).toList();
        if (own.isEmpty()) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the run stopped before this check", seq);
        }
        JsonNode notApplicable = own.stream().filter(e -> e.path("kind").asText().equals("not-applicable")).findFirst().orElse(null);
        if (notApplicable != null) {
            return new Result(id, Verdict.NOT_APPLICABLE, null, notApplicable.path("detail").asText(), seq);
        }
        Observed effects = new Observed(own);
        return switch (id) {
            case "p1", "s1" -> p1(id, own, effects, seq);
            case "p2a", "s2" -> p2a(id, own, effects, seq);
            case "p2b" -> p2b(own, effects, seq);
            case "p3", "s3" -> p3(id, own, effects, seq);
            case "p4" -> replayed(id, own, effects, seq, false);
            case "p5" -> p5(own, effects, seq);
            case "p6" -> p6(own, effects, seq);
            case "p7", "s4" -> p7(id, own, effects, seq);
            case "p8", "s5" -> p8(id, own, effects, seq);
            case "p9" -> replayed(id, own, effects, seq, true);
            case "p10" -> p10(own, effects, seq);
            case "s8" -> s8(own, effects, seq);
            case "s6" -> keyRefused(id, own, effects, seq, "replay", "the key with changed arguments");
            case "s6b" -> keyRefused(id, own, effects, seq, "other principal", "another principal's call with the key");
            case "s7" -> s7(own, effects, seq);
            case "s9" -> s9(own, effects, seq);
            case "r1" -> r1(own, effects, seq);
            default -> new Result(id, Verdict.FAIL, Kind.ERROR, "no such check", seq);
        };
    }

    private Result p1(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode last = last(exchanges(own, "round-"));
        if (!complete(last)) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the call did not complete: " + shown(last), seq);
        }
        if (id.equals("s1") && !fresh) {
            return new Result(id, Verdict.NOT_APPLICABLE, null, "the arguments hold no {{fresh}} value, so the call"
                    + " may find its effect already there", seq);
        }
        Long delta = effects.delta("before", "after");
        if (delta == null) {
            return unobservable(id, effects, seq);
        }
        return delta == 1 ? new Result(id, Verdict.PASS, null, "one complete call, one effect", seq)
                : new Result(id, Verdict.FAIL, Kind.ERROR, "one complete call, " + delta + " effects", seq);
    }

    /**
     * p2a and s2: the reply discarded, the same request again. On a single-round tool a retry that commits nothing
     * but answers otherwise is weak (different-answer): no harm done, but the caller cannot tell what happened.
     */
    private Result p2a(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode discarded = discarded(own);
        JsonNode retry = last(exchanges(own, "retry"));
        if (discarded == null || retry == null) {
            return notReached(id, own, seq);
        }
        return lostReply(id, discarded, retry, effects, seq);
    }

    /** A retry judged against the reply it stands for: the one the probe discarded (p2a, s2), or r1's redelivered one. */
    private Result lostReply(String id, JsonNode discarded, JsonNode retry, Observed effects, List<Integer> seq) {
        boolean single = !id.startsWith("p");
        Long delta = effects.delta("before", "after");
        boolean same = complete(retry) && same(discarded, retry);
        String otherwise = refused(retry) ? "was refused (" + shown(retry) + ")" : "answered otherwise (" + shown(retry) + ")";
        if (delta == null) {
            if (same) {
                return unobservable(id, effects, seq);
            }
            return single && complete(retry) ? differentAnswer(id, "the retry after the lost reply " + otherwise, seq)
                    : new Result(id, Verdict.FAIL, Kind.LOST, "the retry after the lost reply " + otherwise
                            + "; the caller cannot learn the first result", seq);
        }
        if (delta >= 2) {
            return new Result(id, Verdict.FAIL, Kind.DUPLICATE, "the retry after the lost reply committed again: "
                    + delta + " effects for one call", seq);
        }
        if (delta == 0 && (!single || fresh)) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, (single ? "the call" : "the final round") + " committed nothing", seq);
        }
        if (same) {
            return new Result(id, Verdict.PASS, null, "the retry got the same result, " + delta + " effect" + (delta == 1 ? "" : "s"), seq);
        }
        if (single && complete(retry)) {
            return differentAnswer(id, delta + " effect, but the retry " + otherwise, seq);
        }
        return new Result(id, Verdict.FAIL, Kind.LOST, delta + " effect, but the retry " + otherwise
                + ": the caller cannot learn the result", seq);
    }

    /**
     * r1: the stream closed after its priming event, resumed by GET with Last-Event-ID. The reply twice fails; once,
     * the retry that follows is judged as s2's against it; never, the retry alone decides a duplicate, else weak.
     */
    private Result r1(List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode resumed = own.stream().filter(e -> e.path("kind").asText().equals("resumed")).findFirst().orElse(null);
        JsonNode retry = last(exchanges(own, "retry"));
        if (resumed == null || retry == null) {
            return new Result("r1", Verdict.FAIL, Kind.ERROR, "the run stopped before the stream was resumed", seq);
        }
        int delivered = resumed.path("deliveries").size();
        if (delivered >= 2) {
            return new Result("r1", Verdict.FAIL, Kind.DUPLICATE_DELIVERY, "GET with Last-Event-ID delivered the call's reply "
                    + delivered + " times", seq);
        }
        if (delivered == 1) {
            ObjectNode redelivered = JsonNodeFactory.instance.objectNode();
            redelivered.set("reply", resumed.path("deliveries").get(0));
            Result asRetry = lostReply("r1", redelivered, retry, effects, seq);
            return asRetry.verdict() == Verdict.PASS ? new Result("r1", Verdict.PASS, null, "the reply came once on the resumed"
                    + " stream; " + asRetry.reason(), seq) : asRetry;
        }
        Long delta = effects.delta("before", "after");
        if (delta != null && delta >= 2) {
            return new Result("r1", Verdict.FAIL, Kind.DUPLICATE, "nothing was redelivered, and the call sent again committed"
                    + " again: " + delta + " effects for one call", seq);
        }
        String answered = resumed.has("failure") ? resumed.path("failure").asText() : "HTTP " + resumed.path("status").asInt()
                + (resumed.path("body").asText().isEmpty() ? " and no event" : ", " + resumed.path("body").asText());
        return new Result("r1", Verdict.WEAK, Kind.NOT_REDELIVERED, "GET with Last-Event-ID " + resumed.path("last_event_id").asText()
                + " redelivered nothing (" + answered + "); the caller must send the call again", seq);
    }

    /** The reply the probe discarded (the lost one), or null. */
    private static JsonNode discarded(List<JsonNode> own) {
        return own.stream().filter(e -> e.path("discarded").asBoolean(false)).findFirst().orElse(null);
    }

    private static Result notReached(String id, List<JsonNode> own, List<Integer> seq) {
        return new Result(id, Verdict.FAIL, Kind.ERROR, "the call did not reach its final round: "
                + shown(last(exchanges(own, "round-"))), seq);
    }

    private static Result differentAnswer(String id, String reason, List<Integer> seq) {
        return new Result(id, Verdict.WEAK, Kind.DIFFERENT_ANSWER, reason + ": the caller cannot tell what the first call did", seq);
    }

    /**
     * The final round given up at once, then sent again: committed at the cut and recovered by the retry (pass),
     * or cancelled by the cut and committed once by the retry (cancelled, the 2026-07-28 rule that a closed stream
     * cancels); two effects or an unrecoverable retry fail.
     */
    private Result p2b(List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode cut = last(exchanges(own, "cut"));
        JsonNode retry = last(exchanges(own, "retry"));
        if (cut == null || retry == null) {
            return notReached("p2b", own, seq);
        }
        Long atCut = effects.delta("before", "cut");
        Long byRetry = effects.delta("cut", "after");
        if (atCut == null || byRetry == null) {
            return complete(retry) ? unobservable("p2b", effects, seq) : new Result("p2b", Verdict.FAIL, Kind.LOST,
                    "the retry after the cut was refused (" + shown(retry) + ")", seq);
        }
        if (atCut + byRetry >= 2) {
            return new Result("p2b", Verdict.FAIL, Kind.DUPLICATE, "the cut request and its retry committed " + (atCut + byRetry)
                    + " effects", seq);
        }
        if (!complete(retry)) {
            return new Result("p2b", Verdict.FAIL, Kind.LOST, (atCut == 1 ? "the cut request committed, and the retry "
                    : "nothing committed, and the retry ") + "was refused (" + shown(retry) + ")", seq);
        }
        if (atCut == 1) {
            boolean seen = cut.path("reply").isObject();
            if (seen && !same(cut, retry)) {
                return new Result("p2b", Verdict.FAIL, Kind.LOST, "the cut request committed; the retry answered otherwise ("
                        + shown(retry) + ")", seq);
            }
            return new Result("p2b", Verdict.PASS, null, "the cut request committed; the retry got the stored result", seq);
        }
        return byRetry == 1 ? new Result("p2b", Verdict.CANCELLED, null, "the cut cancelled the request; the retry committed once", seq)
                : new Result("p2b", Verdict.FAIL, Kind.ERROR, "neither the cut request nor its retry committed", seq);
    }

    /** The final round after the state's lifetime: refused (or asked again), no effect. */
    private Result p10(List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode expired = last(exchanges(own, "expired"));
        if (expired == null) {
            return notReached("p10", own, seq);
        }
        Long delta = effects.delta("before", "after");
        if (delta != null && delta > 0) {
            return new Result("p10", Verdict.FAIL, Kind.ACCEPTED, "an expired state committed " + delta + " effect(s)", seq);
        }
        if (complete(expired)) {
            return new Result("p10", Verdict.FAIL, Kind.ACCEPTED, "an expired state was answered with a result ("
                    + shown(expired) + ")", seq);
        }
        return delta == null ? unobservable("p10", effects, seq) : new Result("p10", Verdict.PASS, null,
                "the expired state was refused (" + shown(expired) + "), no effect", seq);
    }

    /**
     * p3 and s3: twenty identical sends at once commit one effect. p3 also wants every answered send to get the
     * same result (the state makes them one call); s3 only counts effects, since without an idempotency key the
     * server cannot know the sends are one call.
     */
    private Result p3(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
        boolean single = id.startsWith("s");
        List<JsonNode> race = exchanges(own, "race");
        if (race.isEmpty()) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the call did not reach its final round", seq);
        }
        List<JsonNode> answered = race.stream().filter(Replies::complete).toList();
        boolean allSame = answered.stream().allMatch(a -> same(answered.get(0), a));
        Long delta = effects.delta("before", "after");
        String counts = answered.size() + " of " + race.size() + " sends answered with a result";
        if (delta != null && delta >= 2) {
            return new Result(id, Verdict.FAIL, Kind.DUPLICATE, race.size() + " sends at once committed " + delta
                    + " effects (" + counts + ")", seq);
        }
        if (answered.isEmpty() || (!single && !allSame)) {
            return new Result(id, Verdict.FAIL, Kind.LOST, answered.isEmpty() ? "no send got a result: every caller"
                    + " was refused (" + shown(race.get(0)) + ")" : counts + ", not all the same result", seq);
        }
        if (delta == null) {
            return unobservable(id, effects, seq);
        }
        if (delta == 1 || (single && !fresh && delta == 0)) {
            return new Result(id, Verdict.PASS, null, delta + " effect; " + counts + (allSame ? ", all the same" : ""), seq);
        }
        return new Result(id, Verdict.FAIL, Kind.ERROR, race.size() + " sends at once committed nothing", seq);
    }

    /**
     * s6 and s6b: a committed call's key sent again, with other arguments (s6, the IETF idempotency-key draft's 422)
     * or by another principal (s6b): refused with no effect; a commit, or any answer, fails (for s6b an answer would
     * show one principal's result to another).
     */
    private Result keyRefused(String id, List<JsonNode> own, Observed effects, List<Integer> seq, String role, String what) {
        JsonNode committed = last(exchanges(own, "round-"));
        JsonNode again = last(exchanges(own, role));
        if (again == null || !complete(committed)) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the first call with the key did not complete: " + shown(committed), seq);
        }
        Long more = effects.delta("committed", "after");
        if (more != null && more > 0) {
            return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " committed " + more + " more effect(s)", seq);
        }
        if (!refused(again)) {
            return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " was answered " + (same(committed, again)
                    ? "with the first call's stored answer" : "as if accepted") + " (" + shown(again) + ")", seq);
        }
        return more == null ? unobservable(id, effects, seq)
                : new Result(id, Verdict.PASS, null, what + " was refused (" + shown(again) + "), no effect", seq);
    }

    /**
     * s7: the key again while its first call still runs: refused (the draft's 409) or answered with the first
     * result, never a second effect; another answer with one effect is weak.
     */
    private Result s7(List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode first = last(exchanges(own, "slow"));
        JsonNode again = last(exchanges(own, "again"));
        if (first == null || again == null) {
            return new Result("s7", Verdict.FAIL, Kind.ERROR, "the two calls were not sent", seq);
        }
        Long delta = effects.delta("before", "after");
        if (delta != null && delta >= 2) {
            return new Result("s7", Verdict.FAIL, Kind.DUPLICATE, "the key sent again while its first call ran committed "
                    + delta + " effects", seq);
        }
        if (!complete(first)) {
            return new Result("s7", Verdict.FAIL, Kind.ERROR, "the slow call did not complete: " + shown(first), seq);
        }
        if (delta == null) {
            return unobservable("s7", effects, seq);
        }
        if (delta == 0) {
            return new Result("s7", Verdict.FAIL, Kind.ERROR, "the slow call committed nothing", seq);
        }
        if (refused(again)) {
            return new Result("s7", Verdict.PASS, null, "the key sent again while its first call ran was refused ("
                    + shown(again) + "), one effect", seq);
        }
        return same(first, again) ? new Result("s7", Verdict.PASS, null, "the key sent again while its first call ran got"
                + " the first result, one effect", seq) : differentAnswer("s7", "one effect, but the key sent again while its"
                + " first call ran answered otherwise (" + shown(again) + ")", seq);
    }

    /** s9: two processes on one store, calls alternating: every acknowledged call's effect must be kept. */
    private Result s9(List<JsonNode> own, Observed effects, List<Integer> seq) {
        List<JsonNode> calls = own.stream().filter(e -> e.path("kind").asText().equals("exchange")
                && e.path("role").asText().startsWith("process-")).toList();
        if (calls.size() < 2) {
            return new Result("s9", Verdict.FAIL, Kind.ERROR, "the two processes were not both called", seq);
        }
        Long firstA = effects.delta("before", "first-a");
        Long firstB = effects.delta("first-a", "first-b");
        if (firstA == null || firstB == null) {
            return unobservable("s9", effects, seq);
        }
        if (firstA != 1 || firstB != 1) {
            return new Result("s9", Verdict.NOT_APPLICABLE, null, "the two processes do not share a store (their first calls"
                    + " raised the observer by " + firstA + " and " + firstB + ")", seq);
        }
        long acknowledged = calls.stream().filter(Replies::complete).count();
        Long delta = effects.delta("before", "after");
        String counts = acknowledged + " of " + calls.size() + " calls on two processes answered with a result, " + delta + " effects kept";
        if (delta < acknowledged) {
            return new Result("s9", Verdict.FAIL, Kind.LOST_EFFECT, counts + ": " + (acknowledged - delta)
                    + " acknowledged call(s) left no effect", seq);
        }
        return delta > calls.size() ? new Result("s9", Verdict.FAIL, Kind.DUPLICATE, counts, seq)
                : new Result("s9", Verdict.PASS, null, counts, seq);
    }

    /** s8: twenty calls at once, each with fresh values: every call answered with a result must have its effect. */
    private Result s8(List<JsonNode> own, Observed effects, List<Integer> seq) {
        List<JsonNode> race = exchanges(own, "race");
        if (race.isEmpty()) {
            return new Result("s8", Verdict.FAIL, Kind.ERROR, "no call was sent", seq);
        }
        long acknowledged = race.stream().filter(Replies::complete).count();
        Long delta = effects.delta("before", "after");
        if (delta == null) {
            return unobservable("s8", effects, seq);
        }
        String counts = acknowledged + " of " + race.size() + " calls at once answered with a result, " + delta + " effects kept";
        if (delta < acknowledged) {
            return new Result("s8", Verdict.FAIL, Kind.LOST_EFFECT, counts + ": " + (acknowledged - delta)
                    + " acknowledged call(s) left no effect", seq);
        }
        if (delta > race.size()) {
            return new Result("s8", Verdict.FAIL, Kind.DUPLICATE, counts, seq);
        }
        return new Result("s8", Verdict.PASS, null, counts, seq);
    }

    /** Each tampered state refused (or asked again) with no effect; a commit means a client can forge the state. */
    private Result p5(List<JsonNode> own, Observed effects, List<Integer> seq) {
        List<JsonNode> tampered = exchanges(own, "tampered ");
        if (tampered.isEmpty()) {
            return notReached("p5", own, seq);
        }
        String previous = "before";
        boolean observed = true;
        for (JsonNode exchange : tampered) {
            String variant = exchange.path("role").asText().substring("tampered ".length());
            Long delta = effects.delta(previous, "after-" + variant);
            previous = "after-" + variant;
            if (delta != null && delta > 0) {
                return new Result("p5", Verdict.FAIL, Kind.FORGEABLE_STATE, "the state " + variant + " committed " + delta
                        + " effect(s) (" + shown(exchange) + ")", seq);
            }
            if (complete(exchange)) {
                return new Result("p5", Verdict.FAIL, Kind.ACCEPTED, "the state " + variant + " was answered as if"
                        + " accepted (" + shown(exchange) + ")", seq);
            }
            observed &= delta != null;
        }
        String variants = String.join(", ", tampered.stream().map(e -> e.path("role").asText().substring("tampered ".length())).toList());
        return observed ? new Result("p5", Verdict.PASS, null, "every tampered state refused, no effect (" + variants + ")", seq)
                : unobservable("p5", effects, seq);
    }

    /** A call's final round sent by another principal: refused (or asked again), no effect. */
    private Result p6(List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode stranger = last(exchanges(own, "other principal"));
        if (stranger == null) {
            return notReached("p6", own, seq);
        }
        Long delta = effects.delta("before", "after");
        if (delta != null && delta > 0) {
            return new Result("p6", Verdict.FAIL, Kind.ACCEPTED, "another principal's use of the state committed " + delta
                    + " effect(s)", seq);
        }
        if (complete(stranger)) {
            return new Result("p6", Verdict.FAIL, Kind.ACCEPTED, "another principal's use of the state was answered with a"
                    + " result (" + shown(stranger) + ")", seq);
        }
        if (delta == null) {
            return unobservable("p6", effects, seq);
        }
        return new Result("p6", Verdict.PASS, null, "another principal's use of the state was refused (" + shown(stranger)
                + "), no effect", seq);
    }

    /**
     * p7 and s4: the final round committed, its reply lost, the server restarted: the same round must recover the
     * result with no new effect (on a single-round tool a different answer with no effect is weak).
     */
    private Result p7(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
        boolean single = id.startsWith("s");
        JsonNode discarded = discarded(own);
        JsonNode retry = last(exchanges(own, "retry"));
        if (discarded == null || retry == null) {
            return notReached(id, own, seq);
        }
        Long first = effects.delta("before", "committed");
        Long second = effects.delta("committed", "after");
        boolean same = complete(retry) && same(discarded, retry);
        if (second != null && second > 0) {
            return new Result(id, Verdict.FAIL, Kind.DUPLICATE, "after the restart the same " + (single ? "call" : "round")
                    + " committed again (" + second + " more effect(s))", seq);
        }
        if (!same) {
            String otherwise = refused(retry) ? "was refused (" + shown(retry) + ")" : "answered otherwise (" + shown(retry) + ")";
            return single && complete(retry) ? differentAnswer(id, "after the restart the same call " + otherwise, seq)
                    : new Result(id, Verdict.FAIL, Kind.LOST, "after the restart the same " + (single ? "call " : "round ")
                            + otherwise + ": the caller cannot learn the result", seq);
        }
        if (first == null || second == null) {
            return unobservable(id, effects, seq);
        }
        return first == 1 || (single && !fresh && first == 0) ? new Result(id, Verdict.PASS, null, "after the restart the same "
                + (single ? "call" : "round") + " got the stored result, no new effect", seq)
                : new Result(id, Verdict.FAIL, Kind.ERROR, "the " + (single ? "call" : "final round") + " committed " + first
                        + " effects before the restart", seq);
    }

    private Result p8(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
        JsonNode last = last(exchanges(own, "round-"));
        Long delta = effects.delta("before", "after");
        if (!complete(last)) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the new call did not complete: " + shown(last), seq);
        }
        if (delta == null) {
            return unobservable(id, effects, seq);
        }
        if (delta == 1) {
            return new Result(id, Verdict.PASS, null, "a new call committed a new effect", seq);
        }
        return new Result(id, Verdict.FAIL, delta > 1 ? Kind.DUPLICATE : Kind.ERROR, "a new call committed " + delta
                + " effects" + (delta == 0 ? " (the server took it for the earlier call, or the observer misses it)" : ""), seq);
    }

    /** p4 and p9: a committed call's final round again, changed; p9 may also answer the stored result. */
    private Result replayed(String id, List<JsonNode> own, Observed effects, List<Integer> seq, boolean storedResultIsFine) {
        JsonNode committed = last(exchanges(own, "round-"));
        JsonNode replay = last(exchanges(own, "replay"));
        if (replay == null || !complete(committed)) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the call to replay did not complete: " + shown(committed), seq);
        }
        Long first = effects.delta("before", "committed");
        Long second = effects.delta("committed", "after");
        String what = id.equals("p4") ? "the state with changed arguments" : "the state with changed input responses";
        if (second != null && second > 0) {
            return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " committed " + second + " more effect(s)", seq);
        }
        if (refused(replay)) {
            return second == null ? unobservable(id, effects, seq)
                    : new Result(id, Verdict.PASS, null, what + " was refused (" + shown(replay) + "), no effect", seq);
        }
        if (storedResultIsFine && complete(replay) && same(committed, replay)) {
            return second == null ? unobservable(id, effects, seq)
                    : new Result(id, Verdict.PASS, null, what + " got the first call's stored result, no effect", seq);
        }
        if (first != null && first != 1) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the call to replay committed " + first + " effects", seq);
        }
        return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " was answered as if accepted (" + shown(replay) + ")", seq);
    }

    private Result unobservable(String id, Observed effects, List<Integer> seq) {
        return new Result(id, Verdict.UNOBSERVABLE, null, effects.why(), seq);
    }

    /** Equal results after removing the ignored keys at any depth. */
    private boolean same(JsonNode a, JsonNode b) {
        return SameResult.same(a.path("reply").path("result"), b.path("reply").path("result"), ignored);
    }
}
