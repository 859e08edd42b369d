package lab.continuationreplay.store.recovery;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import lab.continuationreplay.store.readback.EffectState;
import lab.continuationreplay.store.readback.StoredResults;

/** The acceptance rules an observation must pass before it may settle anything (seed spec §6.4, §6.5). */
final class ObservationRules {
    private ObservationRules() {}

    /** Ids, stored result and state must tell one consistent story. */
    static void requireConsistentEffect(EffectState state, List<Long> ids, String storedResult) {
        if (ids.stream().anyMatch(id -> id == null || id <= 0)) {
            throw new IllegalArgumentException("matching ids must be positive integers");
        }
        if (new HashSet<>(ids).size() != ids.size()) {
            throw new IllegalArgumentException("matching ids must be unique");
        }
        if ((ids.size() == 1) != state.hasEffect() || ids.size() > 1) {
            throw new IllegalArgumentException("state and effect count disagree");
        }
        if (state == EffectState.APPLIED && (storedResult == null || storedResult.isEmpty())) {
            throw new IllegalArgumentException("applied operation lacks a stored result");
        }
        if ((state == EffectState.UNKNOWN || state == EffectState.NOT_APPLIED) && storedResult != null) {
            throw new IllegalArgumentException("unsettled operation cannot carry a stored result");
        }
        if (!StoredResults.matchesEffect(state, ids, storedResult)) {
            throw new IllegalArgumentException("stored result disagrees with state or effect");
        }
    }

    /**
     * ISO-8601 with an offset. There is no freshness cutoff: a terminal record does not change, so an old observation
     * of it stays true.
     */
    static void requireTimestampWithZone(String observedAt) {
        try {
            OffsetDateTime.parse(observedAt);
        } catch (DateTimeParseException withoutOffset) {
            try {
                LocalDateTime.parse(observedAt);
            } catch (DateTimeParseException notIso) {
                throw new IllegalArgumentException("observedAt is not an ISO-8601 timestamp");
            }
            throw new IllegalArgumentException("observedAt lacks timezone");
        }
    }
}
