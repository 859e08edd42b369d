package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import lab.continuationreplay.conformance.strict.McpClient.Principal;
import lab.continuationreplay.conformance.strict.StateMutations.Mutation;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The lab's strict MRTR checks against any server that implements the official suite's fixture tools over
 * Streamable HTTP. The suite's own MRTR scenarios pass a server that never signs or checks its {@code requestState};
 * these checks ask what a server that protects its state must do: complete the exact state once asked, and refuse
 * every changed, foreign, stale, malformed or huge one without ever completing it.
 *
 * <p>Each check mints its own state (round one of {@link #FIXTURE}), so a server that keeps states single-use, or one
 * that a refused state unsettles, is judged check by check. The expiry check's state is minted first and sent last,
 * so its wait overlaps the other checks.
 */
public final class StrictCheck {
    /** The fixture whose state the checks attack (the suite's {@code input-required-result-request-state}). */
    public static final String FIXTURE = "test_input_required_result_request_state";
    /** Fixtures that may mint a state for the other-tool check, tried in this order. */
    static final List<String> OTHER_FIXTURES = List.of("test_input_required_result_tampered_state",
            "test_input_required_result_elicitation", "test_input_required_result_multi_round",
            "test_input_required_result_multiple_inputs", "test_input_required_result_sampling",
            "test_input_required_result_list_roots", "test_input_required_result_capabilities");
    /** The word the fixture's contract puts in the completed text ("validated the requestState"). */
    static final String STATE_OK = "state-ok";
    public static final int OVERSIZED_BYTES = 1 << 20;
    /**
     * Waited beyond the lifetime: a server that counts whole seconds and compares {@code now > exp} still sees the
     * state as live up to one second after its lifetime; the rest covers the clocks of two machines.
     */
    static final Duration EXPIRY_MARGIN = Duration.ofSeconds(2);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Round one as a check needs it: a state and the responses that answer its input requests, or why not. */
    sealed interface RoundOne permits Minted, NoState {}

    record Minted(String state, ObjectNode responses, long receivedNanos) implements RoundOne {}

    record NoState(String why) implements RoundOne {}

    /** A request a refusal check sends: who, to which tool, with what arguments, responses and state. */
    record Attempt(String label, Principal principal, String tool, ObjectNode arguments, ObjectNode responses,
            Optional<JsonNode> state) {}

    private final StrictTarget target;
    private final McpClient client;
    private final PrintStream lines;
    private final Map<StrictCheckId, StrictCheckResult> results = new LinkedHashMap<>();

    private final Optional<LedgerHold> hold;

    private StrictCheck(StrictTarget target, PrintStream lines, Optional<LedgerHold> hold) {
        this.target = target;
        this.client = new McpClient(target, READ_TIMEOUT);
        this.lines = lines;
        this.hold = hold;
    }

    /**
     * Runs every check against {@code target}, prints one line per check as it ends, and writes
     * {@code out/strict.json} ({@code out} is created if missing; one that already holds a report is refused).
     *
     * @throws StrictTargetUnreachable when the first request finds no server to connect to
     * @throws FileAlreadyExistsException when {@code out} already holds a {@code strict.json}
     */
    public static StrictReport run(StrictTarget target, Path out, PrintStream lines) throws IOException, StrictTargetUnreachable {
        return run(target, out, lines, Optional.empty());
    }

    /** As above; with {@code hold}, the check of a round whose commit waits when its connection closes runs too. */
    public static StrictReport run(StrictTarget target, Path out, PrintStream lines, Optional<LedgerHold> hold)
            throws IOException, StrictTargetUnreachable {
        Path file = out.resolve(StrictReport.FILE_NAME);
        if (Files.exists(file)) {
            throw new FileAlreadyExistsException(file.toString(), null, "output folders are never overwritten");
        }
        Files.createDirectories(out);
        Instant started = Instant.now();
        StrictCheck run = new StrictCheck(target, lines, hold);
        run.all();
        StrictReport report = new StrictReport(target.url(), target.bearer().isPresent(), target.otherBearer().isPresent(),
                target.stateTtl(), started, Instant.now(), List.copyOf(run.results.values()), file);
        Path partial = out.resolve(StrictReport.FILE_NAME + ".partial");
        String text = ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report.toJson()) + "\n";
        Files.writeString(partial, target.redact(text), StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        return report;
    }

    private void all() throws StrictTargetUnreachable {
        RoundOne opening;
        try {
            opening = roundOne(client.firstCall(FIXTURE, JSON.objectNode()));
        } catch (McpClient.CannotConnect e) {
            throw new StrictTargetUnreachable(target.redact(e.getMessage()));
        }
        if (!(opening instanceof Minted first)) {
            record(new StrictCheckResult(StrictCheckId.ROUND_TRIP, StrictOutcome.FAIL, "round one: " + ((NoState) opening).why(), List.of()));
            for (StrictCheckId check : StrictCheckId.values()) {
                if (check != StrictCheckId.ROUND_TRIP) {
                    record(StrictCheckResult.notRun(check, "round one of " + FIXTURE + " gave no state to work on (see "
                            + StrictCheckId.ROUND_TRIP.id() + ")"));
                }
            }
            return;
        }
        record(roundTrip(first));
        Optional<RoundOne> expiring = target.stateTtl().map(ttl -> fresh());
        record(missingState());
        record(refusals(StrictCheckId.BIT_FLIPS, StateMutations::bitFlips, "no character of the state could be flipped"));
        record(refusals(StrictCheckId.TRUNCATED, StateMutations::truncations, "a one-character state has no shorter prefix"));
        record(refusals(StrictCheckId.RE_ENCODED, StateMutations::reEncodings,
                "no segment of the state is canonical base64 whose other spellings differ from it"));
        record(otherTool());
        record(otherArguments());
        record(otherPrincipal());
        record(nonString());
        record(replay());
        TransportChecks transport = new TransportChecks(client, hold);
        record(transport.getAndDelete());
        record(transport.sessionId());
        record(transport.lastEventId());
        record(transport.newRequest());
        record(transport.closedStream());
        record(transport.stopsWork());
        record(expired(expiring));
        record(oversized());
        record(stillServing());
    }

    private void record(StrictCheckResult result) {
        StrictCheckResult redacted = new StrictCheckResult(result.check(), result.outcome(), target.redact(result.reason()),
                result.probes().stream().map(p -> new Probe(target.redact(p.label()),
                        new Reply(p.reply().kind(), p.reply().httpStatus(), p.reply().result(), target.redact(p.reply().detail())),
                        p.acceptable())).toList());
        results.put(result.check(), redacted);
        lines.println(redacted.line());
        lines.flush();
    }

    // ---- the checks -------------------------------------------------------------------------------------------------

    private StrictCheckResult roundTrip(Minted round) {
        Reply reply = continuation(round, Principal.MAIN, FIXTURE, JSON.objectNode(), Optional.of(JSON.textNode(round.state())));
        boolean stateOk = reply.kind() == ReplyKind.COMPLETED && McpClient.firstText(reply.result()).contains(STATE_OK);
        Probe probe = new Probe("the exact state (" + round.state().length() + " characters) with the responses", reply, stateOk);
        if (stateOk) {
            return pass(StrictCheckId.ROUND_TRIP, "completed; its text has \"" + STATE_OK + "\"", probe);
        }
        if (reply.kind() == ReplyKind.COMPLETED) {
            return fail(StrictCheckId.ROUND_TRIP, "completed, but its text lacks \"" + STATE_OK + "\": \""
                    + McpClient.excerpt(McpClient.firstText(reply.result())) + "\"", probe);
        }
        return fail(StrictCheckId.ROUND_TRIP, "not completed: " + reply.describe(), probe);
    }

    private StrictCheckResult missingState() {
        StrictCheckId check = StrictCheckId.MISSING_STATE;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        Reply reply = continuation(round, Principal.MAIN, FIXTURE, JSON.objectNode(), Optional.empty());
        boolean acceptable = reply.kind() == ReplyKind.INPUT_REQUIRED || reply.refused();
        Probe probe = new Probe("the responses without requestState", reply, acceptable);
        if (reply.kind() == ReplyKind.INPUT_REQUIRED) {
            return pass(check, "input_required again", probe);
        }
        return acceptable ? pass(check, "refused: " + reply.describe(), probe) : fail(check, "not refused: " + reply.describe(), probe);
    }

    private StrictCheckResult refusals(StrictCheckId check, java.util.function.Function<String, List<Mutation>> mutations, String noneWhy) {
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        List<Mutation> changed = mutations.apply(round.state());
        if (changed.isEmpty()) {
            return StrictCheckResult.notRun(check, noneWhy);
        }
        List<Attempt> attempts = changed.stream().map(m -> new Attempt(m.label(), Principal.MAIN, FIXTURE, JSON.objectNode(),
                round.responses(), Optional.<JsonNode>of(JSON.textNode(m.state())))).toList();
        return judgeRefusals(check, attempts);
    }

    private StrictCheckResult otherTool() {
        StrictCheckId check = StrictCheckId.OTHER_TOOL;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted own)) {
            return roundOneFailed(check, opened);
        }
        List<String> tried = new ArrayList<>();
        for (String other : OTHER_FIXTURES) {
            RoundOne theirs = roundOne(client.call(Principal.MAIN, other, JSON.objectNode(), null, Optional.empty()));
            if (theirs instanceof Minted foreign) {
                return judgeRefusals(check, List.of(
                        new Attempt(other + "'s state sent to " + FIXTURE, Principal.MAIN, FIXTURE, JSON.objectNode(),
                                own.responses(), Optional.of(JSON.textNode(foreign.state()))),
                        new Attempt(FIXTURE + "'s state sent to " + other, Principal.MAIN, other, JSON.objectNode(),
                                foreign.responses(), Optional.of(JSON.textNode(own.state())))));
            }
            tried.add(other.substring("test_input_required_result_".length()));
        }
        return StrictCheckResult.notRun(check, "no other test_input_required_result_* fixture gave a state (tried "
                + String.join(", ", tried) + ")");
    }

    private StrictCheckResult otherArguments() {
        StrictCheckId check = StrictCheckId.OTHER_ARGUMENTS;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        ObjectNode changed = JSON.objectNode().put("strict_check", "other arguments than round one's");
        return judgeRefusals(check, List.of(new Attempt("round one with {}, the continuation with " + changed, Principal.MAIN,
                FIXTURE, changed, round.responses(), Optional.of(JSON.textNode(round.state())))));
    }

    private StrictCheckResult otherPrincipal() {
        StrictCheckId check = StrictCheckId.OTHER_PRINCIPAL;
        if (!target.hasTwoPrincipals()) {
            return StrictCheckResult.notRun(check, "needs two principals: give --bearer and --other-bearer");
        }
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        return judgeRefusals(check, List.of(new Attempt("minted for --bearer, sent with --other-bearer", Principal.OTHER, FIXTURE,
                JSON.objectNode(), round.responses(), Optional.of(JSON.textNode(round.state())))));
    }

    private StrictCheckResult nonString() {
        StrictCheckId check = StrictCheckId.NON_STRING;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        // The object and the array carry the real state, so a server that digs a string out of them is caught too.
        Map<String, JsonNode> values = new LinkedHashMap<>();
        values.put("a number", JSON.numberNode(42));
        values.put("a boolean", JSON.booleanNode(true));
        values.put("null", JSON.nullNode());
        values.put("an object holding the state", JSON.objectNode().put("requestState", round.state()));
        values.put("an array holding the state", JSON.arrayNode().add(round.state()));
        List<Attempt> attempts = new ArrayList<>();
        values.forEach((label, value) -> attempts.add(new Attempt(label, Principal.MAIN, FIXTURE, JSON.objectNode(),
                round.responses(), Optional.of(value))));
        return judgeRefusals(check, attempts);
    }

    private StrictCheckResult replay() {
        StrictCheckId check = StrictCheckId.REPLAY;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        Optional<JsonNode> state = Optional.of(JSON.textNode(round.state()));
        Reply first = continuation(round, Principal.MAIN, FIXTURE, JSON.objectNode(), state);
        Probe firstProbe = new Probe("the continuation", first, first.kind() == ReplyKind.COMPLETED);
        if (first.kind() != ReplyKind.COMPLETED) {
            return fail(check, "the first continuation did not complete: " + first.describe(), firstProbe);
        }
        Reply again = continuation(round, Principal.MAIN, FIXTURE, JSON.objectNode(), state);
        JsonNode before = first.result().path("content");
        boolean same = again.kind() == ReplyKind.COMPLETED && again.result().path("content").equals(before);
        Probe againProbe = new Probe("the same continuation again", again, same || again.refused());
        if (same) {
            return pass(check, "the same content again", firstProbe, againProbe);
        }
        if (again.refused()) {
            return pass(check, "refused the second time: " + again.describe(), firstProbe, againProbe);
        }
        if (again.kind() == ReplyKind.COMPLETED) {
            return fail(check, "completed again with other content: \"" + McpClient.excerpt(McpClient.firstText(again.result()))
                    + "\", first \"" + McpClient.excerpt(McpClient.firstText(first.result())) + "\"", firstProbe, againProbe);
        }
        return fail(check, "neither the same result nor a refusal: " + again.describe(), firstProbe, againProbe);
    }

    private StrictCheckResult expired(Optional<RoundOne> expiring) {
        StrictCheckId check = StrictCheckId.EXPIRED;
        if (expiring.isEmpty()) {
            return StrictCheckResult.notRun(check, "no --state-ttl given: without the server's state lifetime no wait can show expiry");
        }
        if (!(expiring.get() instanceof Minted round)) {
            return roundOneFailed(check, expiring.get());
        }
        Duration ttl = target.stateTtl().orElseThrow();
        long due = round.receivedNanos() + ttl.plus(EXPIRY_MARGIN).toNanos();
        try {
            for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
                Thread.sleep(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StrictCheckResult.notRun(check, "interrupted while waiting for the state to expire");
        }
        return judgeRefusals(check, List.of(new Attempt("the exact state, " + ttl.toSeconds() + " s + " + EXPIRY_MARGIN.toSeconds()
                + " s after round one", Principal.MAIN, FIXTURE, JSON.objectNode(), round.responses(),
                Optional.of(JSON.textNode(round.state())))));
    }

    private StrictCheckResult oversized() {
        StrictCheckId check = StrictCheckId.OVERSIZED;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        Mutation big = StateMutations.oversized(round.state(), OVERSIZED_BYTES);
        return judgeRefusals(check, List.of(new Attempt(big.label(), Principal.MAIN, FIXTURE, JSON.objectNode(), round.responses(),
                Optional.of(JSON.textNode(big.state())))));
    }

    private StrictCheckResult stillServing() {
        StrictCheckId check = StrictCheckId.STILL_SERVING;
        RoundOne opened = fresh();
        if (!(opened instanceof Minted round)) {
            return roundOneFailed(check, opened);
        }
        Reply reply = continuation(round, Principal.MAIN, FIXTURE, JSON.objectNode(), Optional.of(JSON.textNode(round.state())));
        Probe probe = new Probe("round one, then the exact state with the responses", reply, reply.kind() == ReplyKind.COMPLETED);
        return reply.kind() == ReplyKind.COMPLETED ? pass(check, "round one and its continuation completed", probe)
                : fail(check, "the continuation did not complete: " + reply.describe(), probe);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------------

    /** Sends every attempt; passes when every one was refused, and says how they were refused. */
    private StrictCheckResult judgeRefusals(StrictCheckId check, List<Attempt> attempts) {
        List<Probe> probes = new ArrayList<>();
        for (Attempt attempt : attempts) {
            Reply reply = client.call(attempt.principal(), attempt.tool(), attempt.arguments(), attempt.responses(), attempt.state());
            probes.add(new Probe(attempt.label(), reply, reply.refused()));
        }
        List<Probe> bad = probes.stream().filter(p -> !p.acceptable()).toList();
        if (bad.isEmpty()) {
            Map<String, Long> how = probes.stream().collect(Collectors.groupingBy(p -> p.reply().refusalShape(),
                    LinkedHashMap::new, Collectors.counting()));
            String kinds = how.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
            return new StrictCheckResult(check, StrictOutcome.PASS, (probes.size() == 1 ? "refused: " : "all " + probes.size()
                    + " refused: ") + kinds, probes);
        }
        Probe example = bad.get(0);
        long completed = bad.stream().filter(p -> p.reply().kind() == ReplyKind.COMPLETED).count();
        String verb = completed > 0 ? completed + " completed" : "none completed";
        return new StrictCheckResult(check, StrictOutcome.FAIL, bad.size() + " of " + probes.size() + " not refused (" + verb
                + "); e.g. " + example.label() + " -> " + example.reply().describe(), probes);
    }

    /** Round two of {@code round} with its responses, as {@code principal}, to {@code tool}, with {@code state}. */
    private Reply continuation(Minted round, Principal principal, String tool, ObjectNode arguments, Optional<JsonNode> state) {
        return client.call(principal, tool, arguments, round.responses(), state);
    }

    private RoundOne fresh() {
        return roundOne(client.call(Principal.MAIN, FIXTURE, JSON.objectNode(), null, Optional.empty()));
    }

    /** Reads round one: an input_required result with a string state and its input requests answered. */
    static RoundOne roundOne(Reply reply) {
        long received = System.nanoTime();
        if (reply.kind() != ReplyKind.INPUT_REQUIRED) {
            return new NoState("expected input_required, got " + reply.describe());
        }
        JsonNode state = reply.result().get("requestState");
        if (state == null || !state.isTextual() || state.textValue().isEmpty()) {
            return new NoState("input_required without a requestState string" + (state == null ? "" : " (got " + state.getNodeType() + ")"));
        }
        return new Minted(state.textValue(), InputResponses.answering(reply.result().path("inputRequests")), received);
    }

    /** A round one that worked for the first check and not for this one is a failure of this check, not a skip. */
    private static StrictCheckResult roundOneFailed(StrictCheckId check, RoundOne opened) {
        return new StrictCheckResult(check, StrictOutcome.FAIL, "round one gave no state this time: " + ((NoState) opened).why(), List.of());
    }

    private static StrictCheckResult pass(StrictCheckId check, String reason, Probe... probes) {
        return new StrictCheckResult(check, StrictOutcome.PASS, reason, List.of(probes));
    }

    private static StrictCheckResult fail(StrictCheckId check, String reason, Probe... probes) {
        return new StrictCheckResult(check, StrictOutcome.FAIL, reason, List.of(probes));
    }
}
