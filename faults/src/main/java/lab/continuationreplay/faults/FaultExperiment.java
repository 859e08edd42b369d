package lab.continuationreplay.faults;

import java.util.Set;
import lab.continuationreplay.core.servers.Transport;

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

    /** Runs over {@link FaultSession#transport()}, one of {@link #transports()}. */
    ExperimentReport run(FaultSession session) throws Exception;

    /** The transports this experiment can run over; the run picks those chosen with {@code --transport}. */
    default Set<Transport> transports() {
        return Set.of(Transport.STDIO);
    }

    /**
     * True for an experiment that runs once, after every other one, whatever the transports (the secrets scan: it
     * reads what all the others wrote).
     */
    default boolean runsOnceAtTheEnd() {
        return false;
    }

    /**
     * The parts of this experiment that make no sense on the session's ledger, each with the reason: listed in
     * {@code faults.json} and {@code FAULTS.md}, never silently dropped (on PostgreSQL, a full tmpfs under a SQLite
     * file, say). Empty when everything applies.
     */
    default java.util.Map<String, String> notApplicable(FaultSession session) {
        return java.util.Map.of();
    }
}
