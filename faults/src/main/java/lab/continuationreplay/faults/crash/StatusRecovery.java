package lab.continuationreplay.faults.crash;

import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.recovery.ContinuationConsumer;
import lab.continuationreplay.store.recovery.RecoveryState;
import lab.continuationreplay.store.recovery.WireObservation;

/** Settles an operation whose reply was lost by {@code get_operation_status} alone, as the consumer of §6.5 does. */
final class StatusRecovery {
    private StatusRecovery() {}

    static RecoveryState settle(ToolClient client, OperationIdentity identity, Throwable lost) throws Exception {
        ContinuationConsumer consumer = new ContinuationConsumer(identity);
        RecoveryState uncertain = consumer.transportFailed(lost);
        if (uncertain.freshWriteAuthorized()) {
            throw new IllegalStateException("a lost reply authorised a fresh write");
        }
        return consumer.reconcile(id -> {
            Reply reply = client.status(id.operationId());
            if (reply.refused()) {
                throw new IllegalStateException("status refused: " + reply.refusalText());
            }
            return WireObservation.parse(reply.structured(), id);
        });
    }
}
