package lab.continuationreplay.bench;

/**
 * The 16-client HTTP goal's floors: the commits/s a server's CPU per commit allows on this machine's cores, which no
 * change to the ledger can beat. When that ceiling over the goal's baseline is under the bound, the goal is out of
 * reach and the row says so rather than failing.
 */
final class HttpCeilings {
    private HttpCeilings() {}

    /** What the floor of the 16-client goal times: the least work any guarded server on this SDK does per commit. */
    static final String CONTROL_FLOOR = "two cores' worth of the unguarded Java control's server CPU per commit over HTTP"
            + " (same SDK, Tomcat, two rounds, sealed state, one durable INSERT+COMMIT, no ledger), over the bare loop";

    /** What the TypeScript 16-client goal's floor times. */
    static final String SDK_FLOOR = "the TypeScript SDK floor server's calls/s that node's CPU allows (its one JavaScript thread's"
            + " CPU per two-round call, and its whole process's on the cores; SDK handler, server per request, state codec, no"
            + " guard, no bridge, no commit), over the bare loop";

    /**
     * The two-round calls/s a node process can reach at {@code processMs} of CPU per call on {@code cores} and
     * {@code mainThreadMs} of it on its one JavaScript thread, whichever allows fewer: node runs JavaScript, the HTTP
     * parser and the SDK on that thread alone, so a second core helps only its crypto and I/O threads.
     */
    static double nodeCeiling(int cores, double processMs, double mainThreadMs) {
        return Math.min(ceiling(1, mainThreadMs), ceiling(cores, processMs));
    }

    /**
     * The commits/s {@code cores} can reach when each commit costs {@code serverCpuMsPerCommit} of server CPU, with
     * the clients, the disk and every lock free.
     */
    static double ceiling(int cores, double serverCpuMsPerCommit) {
        if (!(serverCpuMsPerCommit > 0) || Double.isInfinite(serverCpuMsPerCommit) || cores < 1) {
            throw new IllegalArgumentException("no ceiling from " + cores + " cores at " + serverCpuMsPerCommit + " ms per commit");
        }
        return cores * 1000 / serverCpuMsPerCommit;
    }

    /**
     * The 16-client goal with its floor: the unguarded control does every part of a guarded commit except the guard
     * and the ledger, so no ledger change can push a guarded server on the same SDK past the commits/s its CPU per
     * commit allows on this machine's cores; that ceiling over the goal's baseline (the bare loop) is the best ratio
     * reachable, and when it is under the bound the goal is out of reach.
     */
    static Goal withControlCeiling(Goal goal, int cores, double controlServerCpuMsPerCommit) {
        return goal.withFloor(CONTROL_FLOOR, ceiling(cores, controlServerCpuMsPerCommit) / goal.baseline());
    }
}
