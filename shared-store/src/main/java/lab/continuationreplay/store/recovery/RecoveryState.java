package lab.continuationreplay.store.recovery;

import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.store.readback.EffectState;

/** Where a consumer stands on one operation. A fresh write is never authorised, whatever the state. */
public record RecoveryState(
        OperationIdentity identity,
        SubmissionState submission,
        EffectState effect,
        EffectObservation observation,
        RecoveryAction action,
        String detail,
        String storedResult) {

    public boolean freshWriteAuthorized() {
        return false;
    }
}
