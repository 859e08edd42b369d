package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checker's own reading of a {@code get_operation_status} reply: what a client that follows the recovery rules
 * may conclude from it. Written apart from the ledger's client code, on purpose, and held with it to one table
 * ({@code vectors/rules/status-observation.json}), so a bug in the code under test is not also in its judge.
 */
final class StatusReading {
    private StatusReading() {}

    /** The attempt whose reply this is. */
    record Identity(String operationId, String principal, String backend) {}

    /** The effect the reply settles and the consumer's next action (the stored result for applied, else stop). */
    record Settled(String effect, String action) {}

    private static final Set<String> STATES = Set.of("not_applied", "applied", "partial", "unknown");

    /** @throws IllegalArgumentException naming the first rule the reply breaks */
    static Settled read(JsonNode status, Identity attempt) {
        if (status == null || !status.isObject()) {
            throw refused("status must be a JSON object");
        }
        String operationId = text(status, "operationId");
        String principal = text(status, "principal");
        String backend = text(status, "backend");
        if (operationId == null || principal == null || backend == null) {
            throw refused("identity fields must be nonempty strings");
        }
        if (!new Identity(operationId, principal, backend).equals(attempt)) {
            throw refused("wire reconciliation identity does not match the attempt");
        }
        JsonNode binding = status.path("scopeBinding");
        if (!binding.isObject() || binding.size() != 3 || !operationId.equals(binding.path("operationId").textValue())
                || !principal.equals(binding.path("principal").textValue()) || !backend.equals(binding.path("backend").textValue())) {
            throw refused("structured scope does not match the attempt");
        }
        if (!status.path("authoritative").isBoolean() || !status.path("authoritative").booleanValue()) {
            throw refused("observation is not authoritative");
        }
        if (!status.path("freshWriteAuthorized").isBoolean() || status.path("freshWriteAuthorized").booleanValue()) {
            throw refused("observation must never authorize a fresh write");
        }
        JsonNode stateNode = status.get("state");
        String state = stateNode != null && stateNode.isTextual() && STATES.contains(stateNode.textValue()) ? stateNode.textValue() : null;
        if (state == null) {
            throw refused("unknown effect state " + stateNode);
        }
        List<Long> ids = ids(status.get("matchingIds"));
        JsonNode storedNode = status.get("storedResult");
        if (storedNode != null && !storedNode.isNull() && !storedNode.isTextual()) {
            throw refused("stored result must be a string or null");
        }
        String stored = storedNode == null || storedNode.isNull() ? null : storedNode.textValue();
        consistent(state, ids, stored);
        if (!status.path("observedAt").isTextual()) {
            throw refused("observedAt must be a string");
        }
        if (text(status, "scope") == null) {
            throw refused("scope must be a nonempty string");
        }
        JsonNode detail = status.get("detail");
        if (detail != null && !detail.isNull() && !detail.isTextual()) {
            throw refused("detail must be a string");
        }
        zoned(status.get("observedAt").textValue());
        return new Settled(state, state.equals("applied") ? "return_stored_result" : "stop");
    }

    private static List<Long> ids(JsonNode node) {
        if (node == null || !node.isArray()) {
            throw refused("matching ids must be a list of positive integers");
        }
        List<Long> ids = new ArrayList<>();
        for (JsonNode id : node) {
            if (!id.isIntegralNumber() || !id.canConvertToLong()) {
                throw refused("matching ids must be positive integers");
            }
            ids.add(id.longValue());
        }
        return ids;
    }

    /** Ids, stored result and state tell one story: one id exactly for an effect, and the result the ledger writes for it. */
    private static void consistent(String state, List<Long> ids, String stored) {
        if (ids.stream().anyMatch(id -> id <= 0)) {
            throw refused("matching ids must be positive integers");
        }
        if (new HashSet<>(ids).size() != ids.size()) {
            throw refused("matching ids must be unique");
        }
        boolean effect = state.equals("applied") || state.equals("partial");
        if (ids.size() != (effect ? 1 : 0)) {
            throw refused("state and effect count disagree");
        }
        if (state.equals("applied") && (stored == null || stored.isEmpty())) {
            throw refused("applied operation lacks a stored result");
        }
        if (!effect && stored != null) {
            throw refused("unsettled operation cannot carry a stored result");
        }
        if (effect && (stored == null || !ledgerResults(state, ids.get(0)).contains(stored))) {
            throw refused("stored result disagrees with state or effect");
        }
    }

    /** The texts the ledger stores for an operation in {@code state} whose issue is {@code id} (seed spec 6.2). */
    private static Set<String> ledgerResults(String state, long id) {
        return state.equals("applied") ? Set.of("created " + id, "created " + id + " with watcher")
                : Set.of("partial " + id + "; watcher failed; rollback succeeded", "partial " + id + "; watcher failed; rollback failed");
    }

    /** ISO-8601 with an offset; no freshness cutoff, since a settled record does not change. */
    private static void zoned(String observedAt) {
        try {
            OffsetDateTime.parse(observedAt);
        } catch (DateTimeParseException withoutOffset) {
            try {
                LocalDateTime.parse(observedAt);
            } catch (DateTimeParseException notIso) {
                throw refused("observedAt is not an ISO-8601 timestamp");
            }
            throw refused("observedAt lacks timezone");
        }
    }

    private static String text(JsonNode status, String name) {
        JsonNode node = status.get(name);
        return node != null && node.isTextual() && !node.textValue().isEmpty() ? node.textValue() : null;
    }

    private static IllegalArgumentException refused(String rule) {
        return new IllegalArgumentException(rule);
    }
}
