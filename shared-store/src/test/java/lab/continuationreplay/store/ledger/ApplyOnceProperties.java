package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.count;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.tableCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.store.readback.ReadBack;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Apply-once as a law over any interleaving on one operation id, against a real ledger (a SQLite file or a PostgreSQL schema, chosen per try) read through two
 * connections: identical requests (atomic or partial), requests with another fingerprint, and status reads, each at
 * some reading of the injected clock. Whatever the order, the operation has at most one effect; every apply that
 * succeeds returns that effect; once an apply has succeeded, any other fingerprint conflicts (before any deadline);
 * and a status read changes nothing and reports exactly that effect.
 */
class ApplyOnceProperties {
    private static final OperationIdentity OPERATION = new OperationIdentity("op-law", "alice", BACKEND);
    /** issued 100, authority until 110, retention until 120; the generated clock runs 100..125, past both. */
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);
    private static final String IDENTICAL = "fp-identical";

    enum Mode { ATOMIC, PARTIAL }

    sealed interface Step permits Apply, Status {}

    /** {@code connection} picks one of the two ledgers open on the file. */
    record Apply(int connection, String fingerprint, Mode mode, long now) implements Step {}

    record Status(int connection, long now) implements Step {}

    @Provide
    Arbitrary<List<Step>> interleavings() {
        Arbitrary<Integer> connection = Arbitraries.integers().between(0, 1);
        Arbitrary<Long> clock = Arbitraries.longs().between(100, 125);
        Arbitrary<String> fingerprint = Arbitraries.frequency(
                Tuple.of(3, IDENTICAL), Tuple.of(1, "fp-other-a"), Tuple.of(1, "fp-other-b"));
        Arbitrary<Step> apply = Combinators.combine(connection, fingerprint, Arbitraries.of(Mode.class), clock)
                .as(Apply::new);
        Arbitrary<Step> status = Combinators.combine(connection, clock).as(Status::new);
        return Arbitraries.frequencyOf(Tuple.of(3, apply), Tuple.of(1, status)).list().ofMinSize(1).ofMaxSize(10);
    }

    // Modest tries: every try is a new file with fsync on commit, and the whole property should take seconds.
    @Property(tries = 120)
    void anyInterleavingLeavesAtMostOneEffectAndEverySuccessReturnsIt(
            @ForAll("interleavings") List<Step> steps, @ForAll @IntRange(min = 0, max = 3) int unrelatedIssues,
            @ForAll LedgerKind kind) throws Exception {
        Path dir = Files.createTempDirectory("apply-once-law");
        LedgerLocation file = kind.fresh(dir);
        try (IssueLedger first = IssueLedger.open(file, BACKEND); IssueLedger second = IssueLedger.open(file, BACKEND)) {
            // issues that belong to no operation, so the effect id is not always 1
            for (int i = 0; i < unrelatedIssues; i++) {
                first.createIssue("unrelated " + i, "");
            }
            List<IssueLedger> ledgers = List.of(first, second);
            String bound = null;
            Long effect = null;
            for (Step step : steps) {
                if (step instanceof Apply apply) {
                    IssueLedger ledger = ledgers.get(apply.connection());
                    boolean otherFingerprint = bound != null && !bound.equals(apply.fingerprint());
                    try {
                        ApplyResult result = apply(ledger, apply);
                        assertFalse(otherFingerprint, "another fingerprint succeeded: " + result);
                        if (bound == null) {
                            assertFalse(result.replayed(), "the first success is not a replay");
                            bound = apply.fingerprint();
                            effect = result.effectId();
                        } else {
                            assertTrue(result.replayed(), "a later success is a replay: " + result);
                            assertEquals(effect, result.effectId(), "every success returns the one effect");
                        }
                        Statistics.label("outcome").collect(bound.equals(IDENTICAL) ? "success" : "success, other");
                    } catch (OperationConflict conflict) {
                        assertTrue(otherFingerprint, "a conflict without another fingerprint bound first");
                        Statistics.label("outcome").collect("conflict");
                    } catch (OperationAuthorityExpired | OperationRetentionExpired expired) {
                        assertFalse(otherFingerprint, "expiry answered a request that conflicts: " + expired);
                        assertTrue(apply.now() >= 110, "expired before the authority deadline at " + apply.now());
                        Statistics.label("outcome").collect("expired");
                    }
                } else {
                    Status status = (Status) step;
                    List<Long> before = tableCounts(file);
                    EffectObservation seen = new ReadBack(ledgers.get(status.connection()), OPERATION.principal(),
                            status.now()).reconcileOperation(OPERATION);
                    assertEquals(effect == null ? List.of() : List.of(effect), seen.matchingIds());
                    assertEquals(before, tableCounts(file), "a status read wrote");
                }
                long effects = count(file, "issues") - unrelatedIssues;
                assertEquals(effect == null ? 0 : 1, effects, "issue rows of the operation after " + step);
            }
        } finally {
            deleteTree(dir);
        }
        // the law is only as good as the interleavings: each kind of answer must actually occur
        Statistics.label("outcome").coverage(coverage -> {
            coverage.check("success").count(n -> n > 0);
            coverage.check("conflict").count(n -> n > 0);
            coverage.check("expired").count(n -> n > 0);
        });
    }

    private static ApplyResult apply(IssueLedger ledger, Apply apply) throws Exception {
        boolean identical = apply.fingerprint().equals(IDENTICAL);
        ApplyRequest request = ApplyRequest.at(OPERATION, apply.fingerprint(), identical ? "title" : "other title",
                identical ? "body" : "other body", WINDOW, apply.now());
        return switch (apply.mode()) {
            case ATOMIC -> ledger.applyIssueOnce(request, FaultHook.NONE);
            case PARTIAL -> ledger.applyPartialIssueOnce(request, PartialSteps.injectedFailures(), FaultHook.NONE);
        };
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
