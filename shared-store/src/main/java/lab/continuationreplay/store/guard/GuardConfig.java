package lab.continuationreplay.store.guard;

import java.util.Objects;
import lab.continuationreplay.vectors.FingerprintKey;

/**
 * Trusted configuration of a guard: who the caller is, which backend, the injected clock and TTLs, the fingerprint
 * key. It comes from the server's environment, never from the wire.
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
        if (authorityTtlSeconds <= 0 || retentionTtlSeconds <= 0) {
            throw new IllegalArgumentException("TTLs must be positive");
        }
    }
}
