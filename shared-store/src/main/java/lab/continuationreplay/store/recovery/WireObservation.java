package lab.continuationreplay.store.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.store.readback.EffectState;

/**
 * Reads a {@code get_operation_status} object from the wire into an observation, accepting it only if it is bound
 * to exactly the attempt's identity and internally consistent (seed spec §6.4). Every refusal is an
 * {@link IllegalArgumentException} whose message names the rule.
 */
public final class WireObservation {
    private WireObservation() {}

    public static EffectObservation parse(JsonNode value, OperationIdentity expected) {
        if (value == null || !value.isObject()) {
            throw new IllegalArgumentException("status must be a JSON object");
        }
        String operationId = nonEmptyText(value.get("operationId"));
        String principal = nonEmptyText(value.get("principal"));
        String backend = nonEmptyText(value.get("backend"));
        if (operationId == null || principal == null || backend == null) {
            throw new IllegalArgumentException("identity fields must be nonempty strings");
        }
        OperationIdentity identity = new OperationIdentity(operationId, principal, backend);
        if (!identity.equals(expected)) {
            throw new IllegalArgumentException("wire reconciliation identity does not match the attempt");
        }
        JsonNode binding = value.get("scopeBinding");
        if (binding == null || !binding.isObject() || binding.size() != 3
                || !operationId.equals(binding.path("operationId").textValue())
                || !principal.equals(binding.path("principal").textValue())
                || !backend.equals(binding.path("backend").textValue())) {
            throw new IllegalArgumentException("structured scope does not match the attempt");
        }
        JsonNode authoritative = value.get("authoritative");
        if (authoritative == null || !authoritative.isBoolean() || !authoritative.booleanValue()) {
            throw new IllegalArgumentException("observation is not authoritative");
        }
        JsonNode freshWrite = value.get("freshWriteAuthorized");
        if (freshWrite == null || !freshWrite.isBoolean() || freshWrite.booleanValue()) {
            throw new IllegalArgumentException("observation must never authorize a fresh write");
        }
        JsonNode stateNode = value.get("state");
        EffectState state = stateNode != null && stateNode.isTextual()
                ? EffectState.fromWire(stateNode.textValue()).orElse(null) : null;
        if (state == null) {
            throw new IllegalArgumentException("unknown effect state " + stateNode);
        }
        List<Long> ids = matchingIds(value.get("matchingIds"));
        JsonNode storedNode = value.get("storedResult");
        if (storedNode != null && !storedNode.isNull() && !storedNode.isTextual()) {
            throw new IllegalArgumentException("stored result must be a string or null");
        }
        String storedResult = storedNode == null || storedNode.isNull() ? null : storedNode.textValue();
        ObservationRules.requireConsistentEffect(state, ids, storedResult);
        JsonNode observedAt = value.get("observedAt");
        if (observedAt == null || !observedAt.isTextual()) {
            throw new IllegalArgumentException("observedAt must be a string");
        }
        String scope = nonEmptyText(value.get("scope"));
        if (scope == null) {
            throw new IllegalArgumentException("scope must be a nonempty string");
        }
        JsonNode detail = value.get("detail");
        if (detail != null && !detail.isNull() && !detail.isTextual()) {
            throw new IllegalArgumentException("detail must be a string");
        }
        ObservationRules.requireTimestampWithZone(observedAt.textValue());
        return new EffectObservation(identity, observedAt.textValue(), true, scope, state, ids,
                detail == null || detail.isNull() ? "" : detail.textValue(), storedResult, identity);
    }

    private static List<Long> matchingIds(JsonNode ids) {
        if (ids == null || !ids.isArray()) {
            throw new IllegalArgumentException("matching ids must be a list of positive integers");
        }
        List<Long> parsed = new ArrayList<>();
        for (JsonNode id : ids) {
            // a boolean or 1.0 is not an id
            if (!id.isIntegralNumber() || !id.canConvertToLong()) {
                throw new IllegalArgumentException("matching ids must be positive integers");
            }
            parsed.add(id.longValue());
        }
        return parsed;
    }

    private static String nonEmptyText(JsonNode node) {
        return node != null && node.isTextual() && !node.textValue().isEmpty() ? node.textValue() : null;
    }
}
