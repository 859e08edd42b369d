package lab.continuationreplay.cases;

/**
 * The trusted environment a case gives one server process, in the case's words: who the principal is, what time the
 * server's clock reads (seconds after T0), the three lifetimes, and a lab fault. The runner turns it into a real
 * environment; the keys are the runner's business and never appear here.
 */
public record ServerSetup(String principal, long secondsAfterT0, long authorityTtl, long retentionTtl, long requestStateTtl,
        Fault fault) {

    /** The seed's backend id for every matrix ledger. */
    public static final String BACKEND = "sqlite:guarded-matrix";
    /** The seed's T0: 2026-09-22T00:00:00Z. */
    public static final long T0 = 1790035200L;

    /** A fault a case asks the server to commit. */
    public enum Fault {
        NONE(null),
        /** Commit, then halt with exit status 70 before the reply is written. */
        DROP_AFTER_COMMIT("drop-after-commit"),
        /** HTTP only: commit, then close the connection without a response and keep serving. */
        CLOSE_AFTER_COMMIT("close-after-commit");

        private final String wire;

        Fault(String wire) {
            this.wire = wire;
        }

        /** The value of {@code WIRE_FAULT}, or null for none. */
        public String wire() {
            return wire;
        }
    }

    /** alice at T0, lifetimes 300/360/600 s (authority, retention, request state), no fault: the seed's defaults. */
    public static ServerSetup alice() {
        return new ServerSetup("alice", 0, 300, 360, 600, Fault.NONE);
    }

    public ServerSetup as(String otherPrincipal) {
        return new ServerSetup(otherPrincipal, secondsAfterT0, authorityTtl, retentionTtl, requestStateTtl, fault);
    }

    public ServerSetup at(long seconds) {
        return new ServerSetup(principal, seconds, authorityTtl, retentionTtl, requestStateTtl, fault);
    }

    public ServerSetup withTtls(long authority, long retention, long requestState) {
        return new ServerSetup(principal, secondsAfterT0, authority, retention, requestState, fault);
    }

    public ServerSetup with(Fault labFault) {
        return new ServerSetup(principal, secondsAfterT0, authorityTtl, retentionTtl, requestStateTtl, labFault);
    }
}
