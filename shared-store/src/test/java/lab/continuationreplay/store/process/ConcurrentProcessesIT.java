package lab.continuationreplay.store.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Independent JVMs race on one ledger (a SQLite file, or a PostgreSQL schema): one effect, whatever the interleaving. */
class ConcurrentProcessesIT {
    private static final String BACKEND = "sqlite:race";
    private static final int RACERS = 8;

    private static List<ChildProcesses.Outcome> race(ChildLedger.Target db, Function<Integer, String> fingerprintOf)
            throws Exception {
        try (IssueLedger ignored = IssueLedger.open(db.location(), BACKEND)) {
            // create the file first: this test is about the apply race, SchemaRaceIT about the open race
        }
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            children.add(ChildProcesses.start(db.environment(), "apply", BACKEND, "op-race", "alice", fingerprintOf.apply(i), "none"));
        }
        return ChildProcesses.releaseTogether(children);
    }

    @ParameterizedTest
    @EnumSource(ChildLedger.class)
    void identicalAttemptsCommitOnceAndTheRestReplay(ChildLedger kind, @TempDir Path dir) throws Exception {
        ChildLedger.Target db = kind.fresh(dir, "store");
        List<ChildProcesses.Outcome> outcomes = race(db, i -> "same-fingerprint");
        Map<String, Long> lines = outcomes.stream().collect(Collectors.groupingBy(ChildProcesses.Outcome::line, Collectors.counting()));
        assertEquals(Map.of("applied 1 false created 1", 1L, "applied 1 true created 1", (long) RACERS - 1), lines);
        try (IssueLedger ledger = IssueLedger.open(db.location(), BACKEND)) {
            assertEquals(1, new LedgerQueries(ledger).issueCount());
            assertEquals(1, new LedgerQueries(ledger).operationCount());
        }
    }

    @ParameterizedTest
    @EnumSource(ChildLedger.class)
    void differentFingerprintsGiveOneEffectAndConflicts(ChildLedger kind, @TempDir Path dir) throws Exception {
        ChildLedger.Target db = kind.fresh(dir, "store");
        List<ChildProcesses.Outcome> outcomes = race(db, i -> "fingerprint-" + i);
        long applied = outcomes.stream().filter(o -> o.line().equals("applied 1 false created 1")).count();
        long conflicts = outcomes.stream().filter(o -> o.line().equals("rejected operation_conflict")).count();
        assertEquals(1, applied, outcomes.toString());
        assertEquals(RACERS - 1, conflicts, outcomes.toString());
        try (IssueLedger ledger = IssueLedger.open(db.location(), BACKEND)) {
            assertEquals(1, new LedgerQueries(ledger).issueCount());
        }
    }

    /** Two processes open one new PostgreSQL schema at once, five times: the schema is made once and nobody fails. */
    @RepeatedTest(5)
    void concurrentOpensOfANewPostgresSchemaNeverFail(@TempDir Path dir) throws Exception {
        ChildLedger.Target db = ChildLedger.POSTGRES.fresh(dir, "fresh");
        List<ChildProcesses.Outcome> outcomes = ChildProcesses.releaseTogether(List.of(
                ChildProcesses.start(db.environment(), "open", BACKEND),
                ChildProcesses.start(db.environment(), "open", BACKEND)));
        for (ChildProcesses.Outcome outcome : outcomes) {
            assertEquals(0, outcome.exitStatus());
            assertEquals("opened 0", outcome.line(), outcomes.toString());
        }
    }

    /** Two processes open one new file at once, twenty times: the schema is made once and nobody fails. */
    @RepeatedTest(20)
    void concurrentOpensOfANewFileNeverFail(@TempDir Path dir) throws Exception {
        ChildLedger.Target db = ChildLedger.SQLITE.fresh(dir, "fresh");
        List<Process> children = List.of(
                ChildProcesses.start(db.environment(), "open", BACKEND),
                ChildProcesses.start(db.environment(), "open", BACKEND));
        List<ChildProcesses.Outcome> outcomes = ChildProcesses.releaseTogether(children);
        for (ChildProcesses.Outcome outcome : outcomes) {
            assertEquals(0, outcome.exitStatus());
            assertEquals("opened 0", outcome.line(), outcomes.toString());
        }
        try (IssueLedger ledger = IssueLedger.open(db.location(), BACKEND)) {
            assertTrue(new LedgerQueries(ledger).issueCount() == 0);
        }
    }
}
