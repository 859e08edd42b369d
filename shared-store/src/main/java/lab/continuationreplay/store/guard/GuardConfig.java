package lab.continuationreplay.store.guard;

import java.util.Objects;
import lab.continuationreplay.vectors.FingerprintKey;

/**
 * Trusted configuration of a guard: who the caller is, which backend, the injected clock and TTLs, the fingerprint
 * key. It comes from the server's environment, never from the wire. TTLs of 0 make a guard that applies and reads
 * but never mints a state (the bridge: the TypeScript fixture mints its own).
 */
public record GuardConfig(
        String principal,
        String backendId,
        long nowEpoch,
        long authorityTtlSeconds,
        long retentionTtlSeconds,
        FingerprintKey fingerprintKey) {

    public GuardConfig {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(backendId, "backendId");
        Objects.requireNonNull(fingerprintKey, "fingerprintKey");
        if (authorityTtlSeconds < 0 || retentionTtlSeconds < 0) {
            throw new IllegalArgumentException("TTLs must not be negative");
        }
    }

    /** A configuration for a guard that never mints. */
    public static GuardConfig withoutMinting(String principal, String backendId, long nowEpoch, FingerprintKey fingerprintKey) {
        return new GuardConfig(principal, backendId, nowEpoch, 0, 0, fingerprintKey);
    }

    public boolean canMint() {
        return authorityTtlSeconds > 0 && retentionTtlSeconds > 0;
    }
}
