package lab.continuationreplay.faults;

/**
 * One experiment of {@code lab faults}: it provokes one family of faults against real server processes, checks its
 * invariants from the wire and the SQLite rows, and reports figures. An experiment never throws for a violated
 * invariant; it reports {@code passed=false} with findings, so the other experiments still run.
 */
public interface FaultExperiment {
    /** Short stable name, used in faults.json, the table and {@code --only}. */
    String name();

    /** One line for the table: what is provoked and what must hold. */
    String title();

    ExperimentReport run(FaultSession session) throws Exception;
}
