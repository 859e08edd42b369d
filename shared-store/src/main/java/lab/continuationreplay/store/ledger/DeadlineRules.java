package lab.continuationreplay.store.ledger;

import java.util.OptionalDouble;

/** Deadline checks of the ledger (seed spec §5.4). A deadline equal to now has expired. */
final class DeadlineRules {
    private DeadlineRules() {}

    // A new operation can be both malformed and expired (authority == issued_at == now). Which refusal it gets is
    // observable: a bad request (invalid_application_request) or an expiry (operation_authority_expired). The seed
    // checks the two in opposite orders in its two apply paths and says so itself, "note: reverse order vs 5.2"
    // (§5.3), without giving a reason; the lab keeps the seed's observable behaviour, so the order of each mode lives
    // here and nowhere else.

    /** Admission of a new atomic operation (seed §5.2): {@code validate_timing}, then {@code check_new_deadlines}. */
    static void admitNewAtomic(Deadlines deadlines, OptionalDouble now) {
        validateTiming(deadlines, now);
        checkNotExpired(now, deadlines.authorityExpiresAt(), deadlines.replayExpiresAt());
    }

    /** Admission of a new partial operation (seed §5.3): {@code check_new_deadlines}, then {@code validate_timing}. */
    static void admitNewPartial(Deadlines deadlines, OptionalDouble now) {
        checkNotExpired(now, deadlines.authorityExpiresAt(), deadlines.replayExpiresAt());
        validateTiming(deadlines, now);
    }

    /** Shape of a new operation's deadlines; a violation is a bad request, not an expiry. */
    private static void validateTiming(Deadlines deadlines, OptionalDouble now) {
        requireFinite(deadlines.issuedAt(), "issued_at");
        requireFinite(deadlines.authorityExpiresAt(), "authority_expires_at");
        requireFinite(deadlines.replayExpiresAt(), "replay_expires_at");
        requireFinite(now, "now_epoch");
        if (now.isEmpty() && deadlines.bounded()) {
            throw new IllegalArgumentException("now_epoch is required for a bounded operation");
        }
        Double issued = deadlines.issuedAt();
        if (issued == null) {
            return;
        }
        if (now.getAsDouble() < issued) { // present: issued_at alone makes the operation bounded
            throw new IllegalArgumentException("now_epoch cannot precede issued_at");
        }
        if (deadlines.authorityExpiresAt() != null && deadlines.authorityExpiresAt() <= issued) {
            throw new IllegalArgumentException("authority_expires_at must follow issued_at");
        }
        if (deadlines.replayExpiresAt() != null && deadlines.replayExpiresAt() <= issued) {
            throw new IllegalArgumentException("replay_expires_at must follow issued_at");
        }
    }

    /** Authority first, then retention; both inclusive (now == deadline is expired). */
    private static void checkNotExpired(OptionalDouble reading, Double authorityExpiresAt, Double replayExpiresAt) {
        if (reading.isEmpty()) {
            return;
        }
        double now = reading.getAsDouble();
        if (authorityExpiresAt != null && now >= authorityExpiresAt) {
            throw new OperationAuthorityExpired("operation authority has expired");
        }
        if (replayExpiresAt != null && now >= replayExpiresAt) {
            throw new OperationRetentionExpired("operation replay retention has expired");
        }
    }

    /** An existing row's stored deadlines against now. */
    static void checkExisting(OperationRecord row, OptionalDouble now) {
        requireFinite(now, "now_epoch"); // NaN compares false with every deadline and would skip the check
        boolean bounded = row.authorityExpiresAt() != null || row.replayExpiresAt() != null;
        if (now.isEmpty() && bounded) {
            throw new IllegalArgumentException("now_epoch is required to replay a bounded operation");
        }
        checkNotExpired(now, row.authorityExpiresAt(), row.replayExpiresAt());
    }

    private static void requireFinite(OptionalDouble reading, String name) {
        if (reading.isPresent()) {
            requireFinite(reading.getAsDouble(), name);
        }
    }

    private static void requireFinite(Double value, String name) {
        if (value != null && !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite");
        }
    }
}
