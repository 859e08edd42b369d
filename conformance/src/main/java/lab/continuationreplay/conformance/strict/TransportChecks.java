package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.conformance.strict.McpClient.Answer;
import lab.continuationreplay.conformance.strict.McpClient.Principal;
import lab.continuationreplay.conformance.strict.McpClient.Read;
import lab.continuationreplay.conformance.strict.McpClient.Request;
import lab.continuationreplay.conformance.strict.StrictCheck.Minted;
import lab.continuationreplay.conformance.strict.StrictCheck.RoundOne;
import lab.continuationreplay.core.wire.HttpMessages;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.vectors.CanonicalJsonException;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The 2026-07-28 Streamable HTTP rules that bear on a lost reply, checked from outside like the state checks: no GET
 * stream and no session to end (405), no session id, no resumable stream, a retry that is a request of its own, and a
 * closed response stream that is a cancellation. Each check knows its rule's level ({@link StrictCheckId#level()}): a
 * server that does not do what a SHOULD asks departs ({@link StrictOutcome#DEPARTS}); one that breaks a MUST fails.
 */
final class TransportChecks {
    /** The lab's tool contract: a write whose effect a status tool reads back (vectors/rules/tools.json). */
    static final String EFFECT_TOOL = "create_guarded_issue";
    static final String STATUS_TOOL = "get_operation_status";
    private static final int MAX_ROUNDS = 8;
    /** What the server still does with a request given up on, it does within this (p2b of lab probe waits the same). */
    static final Duration AFTER_CUT = Duration.ofSeconds(1);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final McpClient client;
    private final Optional<LedgerHold> hold;
    /** Found by the first cut check that needs it ({@link #contract()}). */
    private Contract contract;

    TransportChecks(McpClient client, Optional<LedgerHold> hold) {
        this.client = client;
        this.hold = hold;
    }

    /** GET (an old client's standalone stream) and DELETE (an old client's session end) answer 405. */
    StrictCheckResult getAndDelete() {
        StrictCheckId check = StrictCheckId.GET_AND_DELETE;
        Reply get = client.send(client.bare("GET", List.of())).reply();
        Reply delete = client.send(client.bare("DELETE", List.of(new Header("Mcp-Session-Id", madeUp("session"))))).reply();
        Probe getProbe = new Probe("GET with Accept: text/event-stream", get, get.httpStatus() == 405);
        Probe deleteProbe = new Probe("DELETE with a made-up Mcp-Session-Id", delete, delete.httpStatus() == 405);
        if (getProbe.acceptable() && deleteProbe.acceptable()) {
            return result(check, true, "both answered 405", getProbe, deleteProbe);
        }
        return result(check, false, "GET: " + get.describe() + "; DELETE: " + delete.describe(), getProbe, deleteProbe);
    }

    /** Both rounds carry a session id the server never gave; nothing changes, and no response carries one. */
    StrictCheckResult sessionId() {
        StrictCheckId check = StrictCheckId.SESSION_ID;
        List<Header> session = List.of(new Header("Mcp-Session-Id", madeUp("session")));
        Answer opened = client.send(client.toolCall(Principal.MAIN, StrictCheck.FIXTURE, JSON.objectNode(), null, Optional.empty(),
                session, Read.WHOLE));
        RoundOne one = StrictCheck.roundOne(opened.reply());
        Probe first = new Probe("round one with a made-up Mcp-Session-Id", opened.reply(), one instanceof Minted
                && noSessionId(opened));
        if (!(one instanceof Minted round)) {
            return result(check, false, "round one with the header: " + ((StrictCheck.NoState) one).why(), first);
        }
        Answer completed = client.send(client.toolCall(Principal.MAIN, StrictCheck.FIXTURE, JSON.objectNode(), round.responses(),
                Optional.of(JSON.textNode(round.state())), session, Read.WHOLE));
        boolean done = completed.reply().kind() == ReplyKind.COMPLETED;
        Probe second = new Probe("the continuation with the same Mcp-Session-Id", completed.reply(), done && noSessionId(completed));
        List<String> minted = new ArrayList<>();
        for (Answer answer : List.of(opened, completed)) {
            Optional.ofNullable(HttpMessages.value(answer.headers(), "Mcp-Session-Id")).ifPresent(minted::add);
        }
        if (!done) {
            return result(check, false, "the continuation with the header did not complete: " + completed.reply().describe(), first, second);
        }
        if (!minted.isEmpty()) {
            boolean echoed = minted.stream().allMatch(v -> v.equals(session.get(0).value()));
            return result(check, false, (echoed ? "echoed the made-up Mcp-Session-Id" : "answered with an Mcp-Session-Id of its own")
                    + " in " + minted.size() + " of 2 responses", first, second);
        }
        return result(check, true, "both rounds completed as without it, and no response carried an Mcp-Session-Id", first, second);
    }

    /** Round one with a Last-Event-ID header: the answer is this request's own (no earlier event again), and it completes. */
    StrictCheckResult lastEventId() {
        StrictCheckId check = StrictCheckId.LAST_EVENT_ID;
        Request request = client.toolCall(Principal.MAIN, StrictCheck.FIXTURE, JSON.objectNode(), null, Optional.empty(),
                List.of(new Header("Last-Event-ID", "1")), Read.WHOLE);
        Answer opened = client.send(request);
        RoundOne one = StrictCheck.roundOne(opened.reply());
        boolean own = Long.valueOf(request.id()).equals(opened.answeredId());
        Probe first = new Probe("round one with Last-Event-ID: 1", opened.reply(), one instanceof Minted && own);
        if (!(one instanceof Minted round)) {
            return result(check, false, "round one with the header: " + ((StrictCheck.NoState) one).why(), first);
        }
        if (!own) {
            return result(check, false, "round one with the header, id " + request.id() + ", was answered by a response with id "
                    + opened.answeredId() + ": an earlier answer again", first);
        }
        Reply completed = client.call(Principal.MAIN, StrictCheck.FIXTURE, JSON.objectNode(), round.responses(),
                Optional.of(JSON.textNode(round.state())));
        Probe second = new Probe("its continuation, without the header", completed, completed.kind() == ReplyKind.COMPLETED);
        return second.acceptable() ? result(check, true, "answered as a request of its own, and its state completed", first, second)
                : result(check, false, "the state given under the header did not complete: " + completed.describe(), first, second);
    }

    /** The very same round-one request sent twice (a client's retry of a request whose reply it lost) is answered twice. */
    StrictCheckResult newRequest() {
        StrictCheckId check = StrictCheckId.NEW_REQUEST;
        Request request = client.toolCall(Principal.MAIN, StrictCheck.FIXTURE, JSON.objectNode(), null, Optional.empty(), List.of(),
                Read.WHOLE);
        Reply first = client.send(request).reply();
        Reply again = client.send(request).reply();
        RoundOne firstRound = StrictCheck.roundOne(first);
        RoundOne againRound = StrictCheck.roundOne(again);
        Probe one = new Probe("round one, id " + request.id(), first, firstRound instanceof Minted);
        Probe two = new Probe("the same bytes in a new POST", again, againRound instanceof Minted);
        if (!(firstRound instanceof Minted)) {
            return result(check, false, "round one gave no state: " + ((StrictCheck.NoState) firstRound).why(), one, two);
        }
        if (!(againRound instanceof Minted round)) {
            return result(check, false, "the same request in a new POST was not answered as a request of its own: " + again.describe(),
                    one, two);
        }
        Reply completed = client.call(Principal.MAIN, StrictCheck.FIXTURE, JSON.objectNode(), round.responses(),
                Optional.of(JSON.textNode(round.state())));
        Probe three = new Probe("the continuation of the second answer's state", completed, completed.kind() == ReplyKind.COMPLETED);
        return three.acceptable() ? result(check, true, "answered twice, and the second state completed", one, two, three)
                : result(check, false, "the second answer's state did not complete: " + completed.describe(), one, two, three);
    }

    /**
     * lab probe's p2b on the lab's tool contract: a call's final round is written and its connection closed at once;
     * a status read a second later tells whether the cut round committed; then the round is sent again. Either way is
     * within the rule (a cancellation that comes after the commit cannot undo it); what each server did, and what the
     * retry got, is the reason. It fails when the server cannot say what became of the operation, answers the retry
     * with no JSON-RPC answer, or completes it without the effect. lab probe's p2b judges the same on any tool.
     */
    StrictCheckResult closedStream() {
        StrictCheckId check = StrictCheckId.CLOSED_STREAM;
        List<Probe> probes = new ArrayList<>();
        Cut cut = toTheFinalRound(check, probes);
        if (cut.stop() != null) {
            return cut.stop();
        }
        send(cut, Read.NONE);
        probes.add(new Probe("the final round, its connection closed right after it was written",
                new Reply(ReplyKind.NO_RESPONSE, 0, null, "given up"), true));
        pause(AFTER_CUT);
        String atCut = status(cut.operation(), probes, "status " + AFTER_CUT.toSeconds() + " s after the cut");
        Reply retry = retry(cut, probes);
        boolean completed = retry.kind() == ReplyKind.COMPLETED;
        String after = status(cut.operation(), probes, "status after the retry");
        StrictCheckResult broken = broken(check, atCut, after, retry, probes);
        if (broken != null) {
            return broken;
        }
        String cutWay = "applied".equals(atCut) ? "the cut round committed before the close could cancel it"
                : "the close cancelled the round before it committed";
        String retryWay = completed ? ("applied".equals(atCut) ? "the retry got its result" : "the retry committed it once")
                : "the retry was refused (" + retry.describe() + "), so a client cannot learn the cut round's result: see lab probe p2b";
        return result(check, true, cutWay + "; " + retryWay, probes);
    }

    /**
     * The same cut while the server's commit cannot finish: the ledger is held before the final round is written, the
     * connection closed a second later (the round then waits on the ledger), the ledger let go a second after that. A
     * server that treats the close as a cancellation and stops the work commits nothing; one that goes on commits after
     * its client left, which the retry or a status read must then recover. Runs only where the ledger can be held
     * ({@link LedgerHold}).
     */
    StrictCheckResult stopsWork() {
        StrictCheckId check = StrictCheckId.STOPS_WORK;
        if (hold.isEmpty()) {
            return StrictCheckResult.notRun(check, "needs the server's ledger held while the round waits: lab conformance holds"
                    + " it for the servers it starts, --strict --url cannot");
        }
        List<Probe> probes = new ArrayList<>();
        Cut cut = toTheFinalRound(check, probes);
        if (cut.stop() != null) {
            return cut.stop();
        }
        try (AutoCloseable held = hold.get().hold()) {
            // The close comes a second after the round, when the server has handed it to the ledger and waits there:
            // closed at once, the round may be dropped before it gets that far, and the check would measure a race.
            send(cut, Read.NONE_LATER);
            probes.add(new Probe("the final round while the ledger is held, its connection closed " + McpClient.GIVE_UP_LATER.toSeconds()
                    + " s after it was written", new Reply(ReplyKind.NO_RESPONSE, 0, null, "given up"), true));
            pause(AFTER_CUT);
        } catch (Exception e) {
            return StrictCheckResult.notRun(check, "the ledger could not be held or let go: " + e.getMessage());
        }
        pause(AFTER_CUT);
        String atRelease = status(cut.operation(), probes, "status " + AFTER_CUT.toSeconds() + " s after the ledger was let go");
        Reply retry = retry(cut, probes);
        String after = status(cut.operation(), probes, "status after the retry");
        StrictCheckResult broken = broken(check, atRelease, after, retry, probes);
        if (broken != null) {
            return broken;
        }
        String retryWay = retry.kind() == ReplyKind.COMPLETED ? ("applied".equals(atRelease) ? "the retry got the stored result"
                : "the retry committed it once") : "the retry was refused (" + retry.describe() + ")";
        if ("applied".equals(atRelease)) {
            return result(check, false, "the round committed after its connection had closed: the work went on once the"
                    + " ledger was free; " + retryWay, probes);
        }
        return result(check, true, "the close stopped the work: nothing was committed once the ledger was free; " + retryWay, probes);
    }

    /** A call of the effect tool brought to its final round, or the result that says why not. */
    private record Cut(String operation, ObjectNode arguments, Minted last, StrictCheckResult stop) {}

    private Cut toTheFinalRound(StrictCheckId check, List<Probe> probes) {
        Contract contract = contract();
        probes.addAll(contract.probes());
        if (contract.notRun() != null) {
            return stop(StrictCheckResult.notRun(check, contract.notRun()));
        }
        if (contract.failed() != null) {
            return stop(new StrictCheckResult(check, StrictOutcome.FAIL, contract.failed(), probes));
        }
        String operation = madeUp("op");
        Played cut = play(operation, contract.rounds() - 1, probes);
        if (cut.rounds() != contract.rounds() - 1 || cut.last() == null) {
            return stop(new StrictCheckResult(check, StrictOutcome.FAIL, "the call to cut did not reach its final round: " + cut.why(),
                    probes));
        }
        return new Cut(operation, cut.arguments(), cut.last(), null);
    }

    /**
     * What the server's tools and one whole call of the effect tool showed, found once for both cut checks: the
     * call's rounds, or why no round can be cut (not run), or why the tool is broken (failed), and the call's probes.
     */
    private record Contract(int rounds, String notRun, String failed, List<Probe> probes) {}

    private Contract contract() {
        if (contract != null) {
            return contract;
        }
        Reply listed = client.send(client.rpc("tools/list", JSON.objectNode())).reply();
        List<String> names = new ArrayList<>();
        if (listed.result() != null) {
            listed.result().path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        }
        List<Probe> probes = new ArrayList<>();
        if (!names.contains(EFFECT_TOOL) || !names.contains(STATUS_TOOL)) {
            contract = new Contract(0, "the server lists no " + EFFECT_TOOL + " and " + STATUS_TOOL + " (the lab's tool contract), so a"
                    + " cut call's effect cannot be read here; lab probe's p2b checks any tool with an observer", null, List.of());
            return contract;
        }
        Played whole = play(madeUp("op"), MAX_ROUNDS, probes);
        boolean completed = whole.finalReply().kind() == ReplyKind.COMPLETED;
        if (whole.last() == null && completed) {
            contract = new Contract(1, EFFECT_TOOL + " completed in one round: there is no final round to cut", null, List.copyOf(probes));
        } else if (whole.last() == null || !completed) {
            contract = new Contract(0, null, "a whole call of " + EFFECT_TOOL + " did not complete: " + whole.why(), List.copyOf(probes));
        } else {
            contract = new Contract(whole.rounds(), null, null, List.copyOf(probes));
        }
        return contract;
    }

    private static Cut stop(StrictCheckResult result) {
        return new Cut(null, null, null, result);
    }

    private void send(Cut cut, Read read) {
        client.send(client.toolCall(Principal.MAIN, EFFECT_TOOL, cut.arguments(), cut.last().responses(),
                Optional.of(JSON.textNode(cut.last().state())), List.of(), read));
    }

    private Reply retry(Cut cut, List<Probe> probes) {
        Reply retry = client.call(Principal.MAIN, EFFECT_TOOL, cut.arguments(), cut.last().responses(),
                Optional.of(JSON.textNode(cut.last().state())));
        probes.add(new Probe("the final round again, in a new POST", retry, retry.kind() == ReplyKind.COMPLETED));
        return retry;
    }

    /**
     * What fails either cut check whatever its level: a status the server cannot give, a retry answered with no
     * JSON-RPC answer, a retry completed without the effect. Null when none of these happened.
     */
    private static StrictCheckResult broken(StrictCheckId check, String first, String after, Reply retry, List<Probe> probes) {
        if (first.startsWith("unreadable") || after.startsWith("unreadable")) {
            return new StrictCheckResult(check, StrictOutcome.FAIL, "the status of the cut operation was "
                    + (first.startsWith("unreadable") ? first : after), probes);
        }
        if (retry.kind() == ReplyKind.NO_RESPONSE || retry.kind() == ReplyKind.BROKEN) {
            return new StrictCheckResult(check, StrictOutcome.FAIL, "the final round sent again after the cut got " + retry.describe(),
                    probes);
        }
        if (retry.kind() == ReplyKind.COMPLETED && !"applied".equals(after)) {
            return new StrictCheckResult(check, StrictOutcome.FAIL, "the retry completed, but the operation's status is " + after,
                    probes);
        }
        return null;
    }

    /**
     * A call of the effect tool played for up to {@code rounds} rounds, each answered: how many were played, the last
     * input_required state (null if none), the reply that ended it, and what went wrong if it stopped early.
     */
    private record Played(int rounds, ObjectNode arguments, Minted last, Reply finalReply, String why) {}

    private Played play(String operation, int rounds, List<Probe> probes) {
        ObjectNode arguments = JSON.objectNode().put("operation_id", operation).put("title", "strict check " + operation);
        Reply reply = client.call(Principal.MAIN, EFFECT_TOOL, arguments, null, Optional.empty());
        Minted last = null;
        int played = 1;
        while (reply.kind() == ReplyKind.INPUT_REQUIRED) {
            RoundOne round = StrictCheck.roundOne(reply);
            if (!(round instanceof Minted minted)) {
                probes.add(new Probe(EFFECT_TOOL + " round " + played, reply, false));
                return new Played(played, arguments, null, reply, ((StrictCheck.NoState) round).why());
            }
            last = minted;
            if (played == rounds) {
                return new Played(played, arguments, last, reply, "");
            }
            reply = client.call(Principal.MAIN, EFFECT_TOOL, arguments, minted.responses(), Optional.of(JSON.textNode(minted.state())));
            played++;
        }
        boolean completed = reply.kind() == ReplyKind.COMPLETED;
        probes.add(new Probe(EFFECT_TOOL + " played to its end: " + played + " round" + (played == 1 ? "" : "s"), reply, completed));
        if (completed && last == null) {
            return new Played(played, arguments, null, reply, "it completed in one round: there is no final round to cut");
        }
        return new Played(played, arguments, last, reply, completed ? "it completed in round " + played : reply.describe());
    }

    /** The operation's state as get_operation_status gives it ({@code applied}, {@code not_applied}, ...). */
    private String status(String operation, List<Probe> probes, String label) {
        Reply reply = client.call(Principal.MAIN, STATUS_TOOL, JSON.objectNode().put("operation_id", operation), null, Optional.empty());
        String state = stateOf(reply);
        probes.add(new Probe(label + ": " + state, reply, reply.kind() == ReplyKind.COMPLETED));
        return state;
    }

    static String stateOf(Reply reply) {
        if (reply.kind() != ReplyKind.COMPLETED || reply.result() == null) {
            return "unreadable (" + reply.describe() + ")";
        }
        JsonNode structured = reply.result().path("structuredContent");
        if (structured.path("state").isTextual()) {
            return structured.path("state").textValue();
        }
        try {
            JsonNode text = ExactJson.parse(McpClient.firstText(reply.result()));
            if (text.path("state").isTextual()) {
                return text.path("state").textValue();
            }
        } catch (CanonicalJsonException e) {
            // neither form carries a state: said below
        }
        return "unreadable (no state in the status reply)";
    }

    private static boolean noSessionId(Answer answer) {
        return HttpMessages.value(answer.headers(), "Mcp-Session-Id") == null;
    }

    /** A departure from a SHOULD is reported as one; from a MUST it fails. */
    private static StrictCheckResult result(StrictCheckId check, boolean met, String reason, Probe... probes) {
        return result(check, met, reason, List.of(probes));
    }

    private static StrictCheckResult result(StrictCheckId check, boolean met, String reason, List<Probe> probes) {
        StrictOutcome outcome = met ? StrictOutcome.PASS
                : check.level() == StrictCheckId.Level.SHOULD ? StrictOutcome.DEPARTS : StrictOutcome.FAIL;
        return new StrictCheckResult(check, outcome, reason, probes);
    }

    private static String madeUp(String what) {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return "strict-check-" + what + "-" + HexFormat.of().formatHex(bytes);
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
