package lab.continuationreplay.store.ledger;

/**
 * The three epoch-second deadlines a bounded operation carries (any may be null for an unbounded one). Authority and
 * replay retention are independent: cases 07 and 10 expire exactly one of them.
 */
public record Deadlines(Double issuedAt, Double authorityExpiresAt, Double replayExpiresAt) {
    public static final Deadlines UNBOUNDED = new Deadlines(null, null, null);

    public static Deadlines of(long issuedAt, long authorityExpiresAt, long replayExpiresAt) {
        return new Deadlines((double) issuedAt, (double) authorityExpiresAt, (double) replayExpiresAt);
    }

    boolean bounded() {
        return issuedAt != null || authorityExpiresAt != null || replayExpiresAt != null;
    }
}
