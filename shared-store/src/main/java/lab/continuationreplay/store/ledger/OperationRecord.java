package lab.continuationreplay.store.ledger;

import lab.continuationreplay.store.OperationIdentity;

/** One row of {@code operations}. {@code effectId} and {@code result} are null until the effect exists. */
public record OperationRecord(
        OperationIdentity identity,
        String requestFingerprint,
        OperationState state,
        Long effectId,
        String result,
        double issuedAt,
        Double authorityExpiresAt,
        Double replayExpiresAt,
        String createdAt,
        String updatedAt) {}
