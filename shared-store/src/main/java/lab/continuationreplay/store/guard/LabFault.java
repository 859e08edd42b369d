package lab.continuationreplay.store.guard;

import java.util.Arrays;
import java.util.Optional;
import lab.continuationreplay.store.ledger.CutPoint;
import lab.continuationreplay.store.ledger.FaultHook;

/**
 * The lab faults a server can be started with ({@code WIRE_FAULT}). Each ends the process with
 * {@link Runtime#halt}, so no shutdown hook, finally block or buffered reply runs: SQLite rolls back whatever
 * transaction was open, exactly as after a crash.
 */
public enum LabFault {
    /** Exit 70 after a non-replayed commit, before the reply is written: the effect exists, the reply is lost. */
    DROP_AFTER_COMMIT("drop-after-commit", null, 70),
    EXIT_AFTER_LEDGER_INSERT("exit-after-ledger-insert", CutPoint.AFTER_LEDGER_INSERT, 71),
    EXIT_AFTER_ISSUE_INSERT("exit-after-issue-insert", CutPoint.AFTER_ISSUE_INSERT, 72),
    EXIT_AFTER_PARTIAL_FIRST_COMMIT("exit-after-partial-first-commit", CutPoint.AFTER_PARTIAL_FIRST_COMMIT, 73);

    private final String wire;
    private final CutPoint cutPoint;
    private final int exitStatus;

    LabFault(String wire, CutPoint cutPoint, int exitStatus) {
        this.wire = wire;
        this.cutPoint = cutPoint;
        this.exitStatus = exitStatus;
    }

    public String wire() {
        return wire;
    }

    public int exitStatus() {
        return exitStatus;
    }

    /** The fault named by {@code WIRE_FAULT}; empty or absent means none. */
    public static Optional<LabFault> parse(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Arrays.stream(values())
                .filter(f -> f.wire.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("WIRE_FAULT must be one of "
                        + Arrays.stream(values()).map(LabFault::wire).toList())));
    }

    /** A hook that halts the process at this fault's cut point (none for drop-after-commit). */
    public FaultHook hook() {
        return point -> {
            if (point == cutPoint) {
                Runtime.getRuntime().halt(exitStatus);
            }
        };
    }

    /** For drop-after-commit: halt now if the result was a fresh commit (a replay is answered normally). */
    public void afterCommit(GuardedIssueResult result) {
        if (this == DROP_AFTER_COMMIT && !result.replayed()) {
            Runtime.getRuntime().halt(exitStatus);
        }
    }
}
