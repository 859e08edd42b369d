package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import lab.continuationreplay.conformance.strict.FixtureServer.Defect;
import lab.continuationreplay.conformance.strict.FixtureServer.Options;
import lab.continuationreplay.conformance.strict.FixtureServer.RefusalStyle;
import lab.continuationreplay.conformance.strict.FixtureServer.ReplyStyle;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The strict checks against {@link FixtureServer} on a real loopback socket: the defect-free server passes every
 * check, and for every check there is one defect that fails exactly that check while every other check passes (or
 * does not run, for the stated reason). A check no defect could fail would prove nothing. Each test has a server of
 * its own, so they run at once: most of their time is waiting (lifetimes, held ledgers, lingering streams).
 */
@Execution(ExecutionMode.CONCURRENT)
class StrictCheckIT {
    static final String ALICE = "alice-token-0123456789abcdef0123456789abcdef";
    static final String BOB = "bob-token-0123456789abcdef0123456789abcdef01";
    static final Map<String, String> TOKENS = Map.of(ALICE, "alice", BOB, "bob");
    static final Duration TTL = Duration.ofSeconds(1);

    /** The one check each defect must fail. */
    static final Map<Defect, StrictCheckId> VIOLATES = violations();

    private static Map<Defect, StrictCheckId> violations() {
        Map<Defect, StrictCheckId> map = new EnumMap<>(Defect.class);
        map.put(Defect.OMITS_STATE_OK, StrictCheckId.ROUND_TRIP);
        map.put(Defect.COMPLETES_WITHOUT_STATE, StrictCheckId.MISSING_STATE);
        map.put(Defect.MAC_NOT_CHECKED, StrictCheckId.BIT_FLIPS);
        map.put(Defect.TRUNCATED_MAC_ACCEPTED, StrictCheckId.TRUNCATED);
        map.put(Defect.LENIENT_BASE64, StrictCheckId.RE_ENCODED);
        map.put(Defect.TOOL_NOT_BOUND, StrictCheckId.OTHER_TOOL);
        map.put(Defect.ARGUMENTS_NOT_BOUND, StrictCheckId.OTHER_ARGUMENTS);
        map.put(Defect.PRINCIPAL_NOT_BOUND, StrictCheckId.OTHER_PRINCIPAL);
        map.put(Defect.UNWRAPS_NON_STRING, StrictCheckId.NON_STRING);
        map.put(Defect.REPLAY_DIFFERS, StrictCheckId.REPLAY);
        map.put(Defect.EXPIRY_NOT_CHECKED, StrictCheckId.EXPIRED);
        map.put(Defect.FAILS_ON_LARGE_STATE, StrictCheckId.OVERSIZED);
        map.put(Defect.WEDGED_BY_LARGE_STATE, StrictCheckId.STILL_SERVING);
        map.put(Defect.SERVES_GET_AND_DELETE, StrictCheckId.GET_AND_DELETE);
        map.put(Defect.MINTS_SESSION_ID, StrictCheckId.SESSION_ID);
        map.put(Defect.RESUMES_ON_LAST_EVENT_ID, StrictCheckId.LAST_EVENT_ID);
        map.put(Defect.REFUSES_A_REPEATED_ID, StrictCheckId.NEW_REQUEST);
        map.put(Defect.FAILS_A_COMMITTED_RETRY, StrictCheckId.CLOSED_STREAM);
        map.put(Defect.COMMITS_AFTER_CLOSE, StrictCheckId.STOPS_WORK);
        return map;
    }

    @Test
    void everyCheckHasADefectThatViolatesIt() {
        assertEquals(EnumSet.allOf(StrictCheckId.class), EnumSet.copyOf(VIOLATES.values()),
                "a check without a defect that fails it is a check no test shows can fail");
        assertEquals(VIOLATES.size(), Defect.values().length - 2, "every defect but NONE and IGNORES_STATE targets one check");
    }

    @Test
    void theDefectFreeServerPassesEveryCheck(@TempDir Path out) throws Exception {
        StrictReport report = run(Options.of(Defect.NONE).withTokens(TOKENS).withStateTtl(TTL), true, true, out);
        for (StrictCheckResult result : report.checks()) {
            assertEquals(StrictOutcome.PASS, result.outcome(), result.line());
        }
        assertEquals(0, report.exitStatus());
        assertTrue(report.result(StrictCheckId.BIT_FLIPS).probes().size() >= 15, "flips in all three segments");
        assertTrue(report.result(StrictCheckId.REPLAY).reason().contains("same content"), report.result(StrictCheckId.REPLAY).line());
    }

    static Stream<Arguments> defectFreeVariants() {
        return Stream.of(
                Arguments.of(ReplyStyle.EVENT_STREAM, RefusalStyle.JSON_RPC_ERROR_400, true, ReplyKind.JSON_RPC_ERROR, 400),
                Arguments.of(ReplyStyle.JSON, RefusalStyle.IS_ERROR_RESULT, false, ReplyKind.TOOL_ERROR, 200),
                Arguments.of(ReplyStyle.JSON, RefusalStyle.HTTP_400_PLAIN, true, ReplyKind.HTTP_4XX, 400));
    }

    /** Every refusal the checks accept is accepted and recorded as what it was; event streams are read to the answer only. */
    @ParameterizedTest
    @MethodSource("defectFreeVariants")
    void everyWayOfRefusingPasses(ReplyStyle replies, RefusalStyle refusals, boolean singleUse, ReplyKind recorded, int status,
            @TempDir Path out) throws Exception {
        Options options = Options.of(Defect.NONE).withTokens(TOKENS).withReplies(replies).withRefusals(refusals);
        long started = System.nanoTime();
        StrictReport report = run(singleUse ? options.withSingleUse() : options, false, true, out);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertOnly(report, null, true);
        Probe flipped = report.result(StrictCheckId.BIT_FLIPS).probes().get(0);
        assertEquals(recorded, flipped.reply().kind(), flipped.toString());
        assertEquals(status, flipped.reply().httpStatus());
        String replay = report.result(StrictCheckId.REPLAY).reason();
        assertTrue(singleUse ? replay.startsWith("refused the second time") : replay.contains("same content"), replay);
        // An event stream stays open for FixtureServer.LINGER after its answer; waiting for its end would take minutes.
        assertTrue(took.compareTo(FixtureServer.LINGER.multipliedBy(2)) < 0, "took " + took);
    }

    static Stream<Defect> targetedDefects() {
        return VIOLATES.keySet().stream();
    }

    @ParameterizedTest
    @MethodSource("targetedDefects")
    void eachDefectFailsExactlyItsCheck(Defect defect, @TempDir Path out) throws Exception {
        boolean withTtl = VIOLATES.get(defect) == StrictCheckId.EXPIRED;
        // The held-ledger check waits three seconds: held only where a defect is about it (and in the defect-free runs).
        boolean held = VIOLATES.get(defect) == StrictCheckId.STOPS_WORK;
        StrictReport report = run(Options.of(defect).withTokens(TOKENS).withStateTtl(TTL), withTtl, held, out);
        assertOnly(report, VIOLATES.get(defect), held);
        // A departure from a SHOULD is reported and fails nothing; a broken MUST or a lab rule fails the run.
        assertEquals(VIOLATES.get(defect).level() == StrictCheckId.Level.SHOULD ? 0 : 1, report.exitStatus());
    }

    /** The server the official suite's request-state scenario passes (OfficialSuiteIT) fails the strict checks. */
    @Test
    void aServerThatIgnoresItsStateFails(@TempDir Path out) throws Exception {
        StrictReport report = run(Options.of(Defect.IGNORES_STATE), false, false, out);
        assertEquals(StrictOutcome.PASS, report.result(StrictCheckId.ROUND_TRIP).outcome());
        for (StrictCheckId check : List.of(StrictCheckId.MISSING_STATE, StrictCheckId.BIT_FLIPS, StrictCheckId.TRUNCATED,
                StrictCheckId.RE_ENCODED, StrictCheckId.OTHER_TOOL, StrictCheckId.OTHER_ARGUMENTS, StrictCheckId.NON_STRING, StrictCheckId.OVERSIZED)) {
            assertEquals(StrictOutcome.FAIL, report.result(check).outcome(), report.result(check).line());
        }
        assertEquals(8, report.count(StrictOutcome.FAIL));
        assertEquals(StrictOutcome.NOT_RUN, report.result(StrictCheckId.OTHER_PRINCIPAL).outcome());
        assertTrue(report.result(StrictCheckId.OTHER_PRINCIPAL).reason().contains("--other-bearer"));
        assertEquals(1, report.exitStatus());
    }

    @Test
    void noTokenIsPrintedOrWrittenAndBothPrincipalsWereUsed(@TempDir Path out) throws Exception {
        try (FixtureServer server = FixtureServer.start(Options.of(Defect.NONE).withTokens(TOKENS))) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            StrictTarget target = new StrictTarget(server.url(), Optional.of(ALICE), Optional.of(BOB), Optional.empty());
            StrictReport report = StrictCheck.run(target, out, new PrintStream(printed, true, StandardCharsets.UTF_8));
            String lines = printed.toString(StandardCharsets.UTF_8);
            String written = Files.readString(report.file());
            for (String token : List.of(ALICE, BOB)) {
                assertFalse(lines.contains(token));
                assertFalse(written.contains(token));
                assertFalse(target.toString().contains(token));
            }
            assertEquals(List.of("alice", "bob"), server.principalsSeen.stream().sorted().toList());
            assertEquals(StrictCheckId.values().length, lines.lines().count(), lines);
            JsonNode json = ExactJson.parse(written);
            assertEquals("strict/2", json.path("format").asText());
            assertEquals("given", json.path("bearer").asText());
            assertEquals(StrictCheckId.values().length, json.path("checks").size());
            // Expiry (no --state-ttl) and the held-ledger cut (no hold is given here) do not run.
            assertEquals(StrictCheckId.values().length - 2, json.path("summary").path("pass").asInt(), written);
            JsonNode get = json.path("checks").get(StrictCheckId.GET_AND_DELETE.ordinal());
            assertEquals("SHOULD", get.path("level").asText());
            assertTrue(get.path("spec_section").asText().endsWith("streamable-http.mdx, Backward Compatibility, Earlier Streamable HTTP Revisions"),
                    get.toString());
            assertEquals("LAB", json.path("checks").get(0).path("level").asText());
            assertFalse(json.path("checks").get(0).has("spec_section"));
            assertEquals(2, json.path("summary").path("not_run").asInt());
            assertTrue(json.path("passed").asBoolean());
        }
    }

    @Test
    void anOutputFolderIsNeverOverwritten(@TempDir Path out) throws Exception {
        try (FixtureServer server = FixtureServer.start(Options.of(Defect.NONE))) {
            StrictTarget target = new StrictTarget(server.url(), Optional.empty(), Optional.empty(), Optional.empty());
            StrictCheck.run(target, out, quiet());
            String first = Files.readString(out.resolve(StrictReport.FILE_NAME));
            assertThrows(FileAlreadyExistsException.class, () -> StrictCheck.run(target, out, quiet()));
            assertEquals(first, Files.readString(out.resolve(StrictReport.FILE_NAME)));
        }
    }

    @Test
    void anUnreachableServerIsOneLineAndNoReport(@TempDir Path out) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        StrictTarget target = StrictTarget.of("http://127.0.0.1:" + port + "/mcp", ALICE, null, null);
        StrictTargetUnreachable e = assertThrows(StrictTargetUnreachable.class, () -> StrictCheck.run(target, out, quiet()));
        assertEquals("cannot connect to 127.0.0.1:" + port + ": connection refused", e.getMessage());
        assertFalse(Files.exists(out.resolve(StrictReport.FILE_NAME)));
    }

    @Test
    void aRefusedTokenFailsTheRoundTripAndNothingElseRuns(@TempDir Path out) throws Exception {
        try (FixtureServer server = FixtureServer.start(Options.of(Defect.NONE).withTokens(TOKENS))) {
            // A token the server does not know: every request is 401, so no check after the first has a state to work on.
            StrictTarget target = new StrictTarget(server.url(), Optional.of("not-" + ALICE), Optional.empty(), Optional.empty());
            StrictReport report = StrictCheck.run(target, out, quiet());
            assertEquals(StrictOutcome.FAIL, report.result(StrictCheckId.ROUND_TRIP).outcome());
            assertTrue(report.result(StrictCheckId.ROUND_TRIP).reason().contains("HTTP 401"), report.result(StrictCheckId.ROUND_TRIP).line());
            assertEquals(StrictCheckId.values().length - 1, report.count(StrictOutcome.NOT_RUN));
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------------------------

    static StrictReport run(Options options, boolean withTtl, boolean held, Path out) throws IOException, StrictTargetUnreachable {
        try (FixtureServer server = FixtureServer.start(options)) {
            Optional<String> alice = options.tokens().isEmpty() ? Optional.empty() : Optional.of(ALICE);
            Optional<String> bob = options.tokens().isEmpty() ? Optional.empty() : Optional.of(BOB);
            StrictTarget target = new StrictTarget(server.url(), alice, bob, withTtl ? Optional.of(TTL) : Optional.empty());
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            StrictReport report = StrictCheck.run(target, out, new PrintStream(printed, true, StandardCharsets.UTF_8),
                    held ? Optional.of(server::hold) : Optional.empty());
            System.out.println("strict checks against " + options.defect() + ":\n" + printed.toString(StandardCharsets.UTF_8));
            return report;
        }
    }

    /**
     * {@code failing} fails (departs, when its rule is a SHOULD); every other check passes, except expiry without a
     * lifetime and the held-ledger cut without a hold, which do not run.
     */
    static void assertOnly(StrictReport report, StrictCheckId failing, boolean held) {
        List<String> wrong = new ArrayList<>();
        for (StrictCheckResult result : report.checks()) {
            StrictOutcome expected = result.check() == failing
                    ? failing.level() == StrictCheckId.Level.SHOULD ? StrictOutcome.DEPARTS : StrictOutcome.FAIL
                    : report.stateTtl().isEmpty() && result.check() == StrictCheckId.EXPIRED ? StrictOutcome.NOT_RUN
                    : !held && result.check() == StrictCheckId.STOPS_WORK ? StrictOutcome.NOT_RUN : StrictOutcome.PASS;
            if (result.outcome() != expected) {
                wrong.add("expected " + expected.word() + ": " + result.line());
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        if (report.stateTtl().isEmpty()) {
            assertTrue(report.result(StrictCheckId.EXPIRED).reason().startsWith("no --state-ttl given"));
        }
        if (!held) {
            assertTrue(report.result(StrictCheckId.STOPS_WORK).reason().startsWith("needs the server's ledger held"));
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(ByteArrayOutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    }
}
