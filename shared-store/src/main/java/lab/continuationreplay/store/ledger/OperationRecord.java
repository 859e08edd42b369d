package lab.continuationreplay.store.ledger;

import lab.continuationreplay.store.OperationIdentity;

/** One row of {@code operations}. {@code effectId} and {@code result} are null until the effect exists. */
public record OperationRecord(
        OperationIdentity identity,
        String requestFingerprint,
        String state,
        Long effectId,
        String result,
        double issuedAt,
        Double authorityExpiresAt,
        Double replayExpiresAt,
        String createdAt,
        String updatedAt) {

    public static final String IN_PROGRESS = "in_progress";
    public static final String APPLIED = "applied";
    public static final String PARTIAL = "partial";
}
