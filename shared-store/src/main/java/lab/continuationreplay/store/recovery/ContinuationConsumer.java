package lab.continuationreplay.store.recovery;

import java.util.Objects;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.store.readback.EffectState;

/**
 * The client side of recovery (seed spec §6.5). A lost reply leaves the operation {@code unknown}, never
 * {@code not_applied}; only an authoritative observation bound to the same identity settles it, and even then the
 * consumer only returns the stored result (applied) or stops (partial, unknown). It never authorises a fresh write.
 */
public final class ContinuationConsumer {
    static final String SETTLED_DETAIL = "identity-bound read-only evidence; no repeat execution authorized";

    /** Supplies an observation for an identity, e.g. by calling {@code get_operation_status}. */
    @FunctionalInterface
    public interface Observer {
        EffectObservation observe(OperationIdentity identity) throws Exception;
    }

    private final OperationIdentity identity;

    public ContinuationConsumer(OperationIdentity identity) {
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    /** No terminal reply: the write may or may not have happened, so the only next step is to reconcile. */
    public RecoveryState transportFailed(Throwable error) {
        return new RecoveryState(identity, SubmissionState.UNKNOWN, EffectState.UNKNOWN, null, RecoveryAction.RECONCILE,
                "no terminal reply received (" + error.getClass().getSimpleName() + ")", null);
    }

    public RecoveryState reconcile(Observer observer) throws Exception {
        EffectObservation observation = observer.observe(identity);
        if (observation == null || !identity.equals(observation.identity())) {
            throw new IllegalArgumentException("observation identity does not match the attempt");
        }
        if (!observation.authoritative()) {
            throw new IllegalArgumentException("diagnostic observations cannot settle an uncertain operation");
        }
        if (!identity.equals(observation.scopeBinding())) {
            throw new IllegalArgumentException("observation scope binding does not match the attempt");
        }
        if (observation.state() == null) {
            throw new IllegalArgumentException("observation has no effect state");
        }
        if (observation.scope() == null || observation.scope().isEmpty()) {
            throw new IllegalArgumentException("scope must be a nonempty string");
        }
        if (observation.observedAt() == null) {
            throw new IllegalArgumentException("observedAt must be a string");
        }
        ObservationRules.requireTimestampWithZone(observation.observedAt());
        ObservationRules.requireConsistentEffect(observation.state(), observation.matchingIds(), observation.storedResult());
        boolean applied = observation.state() == EffectState.APPLIED;
        return new RecoveryState(identity, SubmissionState.UNKNOWN, observation.state(), observation,
                applied ? RecoveryAction.RETURN_STORED_RESULT : RecoveryAction.STOP, SETTLED_DETAIL,
                applied ? observation.storedResult() : null);
    }
}
