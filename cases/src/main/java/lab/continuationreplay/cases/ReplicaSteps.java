package lab.continuationreplay.cases;

/**
 * What a replica cell may do beyond a matrix case: the replicas are containers of their own on a network with the
 * database server, so a script can also act on that topology. {@code lab replicas} implements it with a real
 * PostgreSQL container, real replica containers and {@code docker network disconnect}; a script never sees a verdict.
 */
public interface ReplicaSteps extends CaseSteps {
    /**
     * Takes an exclusive lock on this cell's ledger tables (creating them first, as the ledger itself would), so the
     * next ledger transaction of any replica waits inside the database until {@link #releaseLedger()}.
     */
    void holdLedger() throws Exception;

    void releaseLedger() throws Exception;

    /** Returns once a session of {@code replica} waits on the held lock: its request is then inside the database. */
    void awaitWaitingOnLedger(CaseServer replica) throws Exception;

    /** Takes {@code replica} off the network it shares with the database ({@code docker network disconnect}). */
    void cutFromDatabase(CaseServer replica) throws Exception;

    /** Puts {@code replica} back on that network, at its own address. */
    void reconnectToDatabase(CaseServer replica) throws Exception;

    /** Returns once the database holds no session from {@code replica}'s address (a transaction left open ended). */
    void awaitDatabaseForgets(CaseServer replica) throws Exception;

    /** Kills the database server (SIGKILL, no shutdown) and starts it again on its data; returns once it answers. */
    void killAndRestartDatabase() throws Exception;

    /** The replica steps behind a script's steps, refused clearly where the steps are a matrix case's. */
    static ReplicaSteps of(CaseSteps steps) {
        if (steps instanceof ReplicaSteps replicas) {
            return replicas;
        }
        throw new IllegalStateException("a replica cell runs only under lab replicas (replicas in containers and a"
                + " database server), not as a matrix case");
    }
}
