package lab.continuationreplay.matrix.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import lab.continuationreplay.core.client.Reply;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectObservation;
import lab.continuationreplay.store.recovery.ContinuationConsumer;
import lab.continuationreplay.store.recovery.RecoveryState;
import lab.continuationreplay.store.recovery.WireObservation;

/**
 * Reduces a case's facts to its semantic outcome: what happened, in words both SDKs share, independent of wire
 * shape (JSON-RPC error or {@code isError} result, text or structured). Both SDKs must reduce to the same outcome.
 */
public final class Outcomes {
    private Outcomes() {}

    public static ObjectNode derive(CaseFacts facts) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        List<WireFacts.Call> continuations = facts.wire().continuations();
        String id = facts.caseId();
        switch (id) {
            case "01" -> {
                o.set("replayed_flags", replayedFlags(continuations));
                o.put("same_result", distinctResults(continuations) == 1);
                o.put("operations", facts.db().operations().size());
            }
            case "02" -> status(o, facts, "status", "consumer_action");
            case "03" -> {
                lostReply(o, facts, continuations);
                o.put("explicit_replay", continuations.size() > 1 && continuations.get(1).answered()
                        && continuations.get(1).asReply().structured().path("replayed").asBoolean(false) ? "replayed" : "not_replayed");
            }
            case "04" -> o.put("mechanism", mechanism(continuations, 1));
            case "05" -> {
                o.put("valid_changed_state", mechanism(continuations, 1));
                o.put("tampered_state", mechanism(continuations, 2));
            }
            case "06" -> {
                o.put("sdk_principal_binding", mechanism(continuations, 1));
                o.put("ledger_binding", mechanism(continuations, 2));
                WireFacts.Call readback = only(facts.wire().statusCalls());
                JsonNode structured = readback == null || !readback.answered() ? null : readback.asReply().structured();
                o.put("other_principal_status", structured == null ? "no_reply" : structured.path("state").asText());
                o.put("alice_identity_refused", refusesAsAlice(id, structured));
            }
            case "07" -> {
                o.put("mechanism", mechanism(continuations, 1));
                status(o, facts, "readback", "consumer_action");
                o.put("fresh_write_authorized", false);
            }
            case "08" -> {
                o.put("processes", continuations.stream().map(WireFacts.Call::source).distinct().count());
                o.set("replayed_flags", replayedFlags(continuations));
                o.put("same_result", distinctResults(continuations) == 1);
            }
            case "09" -> {
                lostReply(o, facts, continuations);
                o.put("redispatched", continuations.size() > 1);
            }
            case "10" -> {
                o.put("application_expiry", mechanism(continuations, 1));
                o.put("fresh_issuance", mechanism(continuations, 2));
                o.put("sdk_expiry", mechanism(continuations, 3));
                o.put("operations", facts.db().operations().size());
            }
            case "11" -> {
                o.put("mechanism", mechanism(continuations, 0));
                WireFacts.Call fresh = facts.wire().calls().stream()
                        .filter(c -> "case-11-new".equals(c.arguments().path("operation_id").textValue())).findFirst().orElse(null);
                o.put("valid_initial_round", fresh != null && fresh.answered() && fresh.asReply().inputRequired()
                        ? "input_required" : "missing");
            }
            case "12" -> {
                o.set("replayed_flags", replayedFlags(continuations));
                o.put("state", continuations.isEmpty() || !continuations.get(0).answered() ? "no_reply"
                        : continuations.get(0).asReply().structured().path("state").asText());
                status(o, facts, "readback", "consumer_action");
                o.put("watchers", facts.db().watchers().size());
                o.put("failed_compensations", facts.db().compensations().stream()
                        .filter(c -> String.valueOf(c.get("outcome")).startsWith("failed:")).count());
                o.put("step_events", facts.db().events().size());
            }
            default -> throw new IllegalArgumentException("unknown case " + id);
        }
        o.put("effects", facts.effects());
        return sorted(o);
    }

    /** A continuation's refusal mechanism, "applied"/"replayed" for a success, "no_reply" for silence. */
    static String mechanism(List<WireFacts.Call> continuations, int index) {
        if (index >= continuations.size()) {
            return "not_sent";
        }
        WireFacts.Call call = continuations.get(index);
        if (!call.answered()) {
            return "no_reply";
        }
        Reply reply = call.asReply();
        if (reply.refused()) {
            return reply.mechanism();
        }
        return reply.structured().path("replayed").asBoolean(false) ? "replayed" : "applied";
    }

    private static ArrayNode replayedFlags(List<WireFacts.Call> continuations) {
        ArrayNode flags = JsonNodeFactory.instance.arrayNode();
        continuations.stream().filter(WireFacts.Call::answered).map(WireFacts.Call::asReply).filter(r -> !r.refused())
                .map(r -> r.structured().path("replayed").asBoolean()).sorted().forEach(flags::add);
        return flags;
    }

    private static long distinctResults(List<WireFacts.Call> continuations) {
        return continuations.stream().filter(WireFacts.Call::answered).map(WireFacts.Call::asReply).filter(r -> !r.refused())
                .map(r -> r.structured().path("result").asText()).distinct().count();
    }

    /** The reply was lost (no answer, the process exited 70), then an authoritative status settles it. */
    private static void lostReply(ObjectNode o, CaseFacts facts, List<WireFacts.Call> continuations) {
        boolean lost = !continuations.isEmpty() && !continuations.get(0).answered();
        o.put("transport", lost ? "unknown" : "answered");
        o.put("crash_exit", facts.exits().isEmpty() || facts.exits().get(0).status() == null ? -1 : facts.exits().get(0).status());
        status(o, facts, "reconciled", "consumer_action");
    }

    /** The single status reply, judged by the recovery consumer against alice's identity for this case. */
    private static void status(ObjectNode o, CaseFacts facts, String stateKey, String actionKey) {
        WireFacts.Call call = only(facts.wire().statusCalls());
        if (call == null || !call.answered() || call.asReply().refused()) {
            o.put(stateKey, "no_status");
            o.put(actionKey, "none");
            return;
        }
        OperationIdentity alice = new OperationIdentity("case-" + facts.caseId(), "alice", WireSettings.BACKEND);
        try {
            EffectObservation observation = WireObservation.parse(call.asReply().structured(), alice);
            RecoveryState state = new ContinuationConsumer(alice).reconcile(identity -> observation);
            o.put(stateKey, state.effect().wire());
            o.put(actionKey, state.action().wire());
        } catch (Exception refused) {
            o.put(stateKey, "refused: " + refused.getMessage());
            o.put(actionKey, "none");
        }
    }

    private static boolean refusesAsAlice(String id, JsonNode structured) {
        if (structured == null) {
            return false;
        }
        try {
            WireObservation.parse(structured, new OperationIdentity("case-" + id, "alice", WireSettings.BACKEND));
            return false;
        } catch (IllegalArgumentException expected) {
            return Objects.requireNonNullElse(expected.getMessage(), "").contains("identity");
        }
    }

    private static WireFacts.Call only(List<WireFacts.Call> calls) {
        return calls.size() == 1 ? calls.get(0) : null;
    }

    /** Keys in code-point order, so an outcome prints and compares the same way everywhere. */
    static ObjectNode sorted(ObjectNode outcome) {
        ObjectNode sorted = JsonNodeFactory.instance.objectNode();
        List<String> names = new java.util.ArrayList<>();
        outcome.fieldNames().forEachRemaining(names::add);
        names.sort(lab.continuationreplay.vectors.CanonicalJson.CODE_POINT_ORDER);
        names.forEach(n -> sorted.set(n, outcome.get(n)));
        return sorted;
    }
}
