package lab.continuationreplay.store;

import java.util.Objects;

/** Who asked for which operation where: the identity every ledger row, observation and recovery is bound to. */
public record OperationIdentity(String operationId, String principal, String backend) {
    public OperationIdentity {
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(backend, "backend");
    }
}
