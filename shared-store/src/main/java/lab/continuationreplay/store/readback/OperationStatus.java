package lab.continuationreplay.store.readback;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The wire status object of {@code get_operation_status} (seed spec §6.3), in a fixed key order. It never authorises
 * a fresh write, and carries a stored result only for an applied or partial effect.
 */
@JsonPropertyOrder({"operationId", "principal", "backend", "observedAt", "authoritative", "freshWriteAuthorized",
    "scope", "scopeBinding", "state", "matchingIds", "detail", "storedResult"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record OperationStatus(
        String operationId,
        String principal,
        String backend,
        String observedAt,
        boolean authoritative,
        boolean freshWriteAuthorized,
        String scope,
        ScopeBinding scopeBinding,
        String state,
        List<Long> matchingIds,
        String detail,
        String storedResult) {

    /** The identity the observation is bound to, as the consumer checks it. */
    @JsonPropertyOrder({"operationId", "principal", "backend"})
    public record ScopeBinding(String operationId, String principal, String backend) {
        public static ScopeBinding of(OperationIdentity identity) {
            return new ScopeBinding(identity.operationId(), identity.principal(), identity.backend());
        }
    }

    public static OperationStatus of(EffectObservation observation) {
        OperationIdentity identity = observation.identity();
        if (!observation.authoritative() || !identity.equals(observation.scopeBinding())) {
            throw new IllegalArgumentException("only an authoritative, identity-bound observation is a status");
        }
        return new OperationStatus(identity.operationId(), identity.principal(), identity.backend(),
                observation.observedAt(), true, false, observation.scope(), ScopeBinding.of(identity),
                observation.state().wire(), observation.matchingIds(), observation.detail(), observation.storedResult());
    }

    public ObjectNode toJson() {
        return ExactJson.mapper().valueToTree(this);
    }
}
