package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Observation;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * Reduces a case's facts to its semantic outcome: each member the case's spec names, observed from the history, in
 * words both SDKs share, independent of wire shape (JSON-RPC error or {@code isError} result). Both SDKs must reduce
 * to the same outcome.
 */
public final class Outcome {
    private Outcome() {}

    public static ObjectNode derive(CaseSpec spec, CaseFacts facts) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, Observation> member : spec.outcome().entrySet()) {
            o.set(member.getKey(), observe(member.getValue(), spec, facts));
        }
        o.put("effects", facts.effects());
        return sorted(o);
    }

    static JsonNode observe(Observation observation, CaseSpec spec, CaseFacts facts) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        List<WireFacts.Call> continuations = facts.wire().continuations();
        int index = observation.index();
        return switch (observation.kind()) {
            case REPLAYED_FLAGS -> replayedFlags(continuations);
            case SAME_RESULT -> json.booleanNode(successes(continuations).stream()
                    .map(r -> r.structured().path("result").asText()).distinct().count() == 1);
            case OPERATION_ROWS -> json.numberNode(facts.db().operations().size());
            case CONTINUATION_PROCESSES -> json.numberNode(continuations.stream().map(WireFacts.Call::source).distinct().count());
            case REDISPATCHED -> json.booleanNode(continuations.size() > 1);
            case MECHANISM -> json.textNode(mechanism(continuations, index));
            case CLEAR_ERROR -> {
                String mechanism = mechanism(continuations, index);
                yield json.textNode(mechanism.startsWith(lab.continuationreplay.history.Reply.OTHER_PREFIX) ? "clear_error" : mechanism);
            }
            case EXPLICIT_REPLAY -> json.textNode(index < continuations.size() && continuations.get(index).answered()
                    && continuations.get(index).asReply().structured().path("replayed").asBoolean(false) ? "replayed" : "not_replayed");
            case CONTINUATION_STATE -> json.textNode(index >= continuations.size() || !continuations.get(index).answered()
                    ? "no_reply" : continuations.get(index).asReply().structured().path("state").asText());
            case FRESH_WRITE -> json.booleanNode(continuations.stream().skip(index).map(c -> mechanism(List.of(c), 0))
                    .anyMatch("applied"::equals));
            case TRANSPORT -> json.textNode(!continuations.isEmpty() && !continuations.get(0).answered() ? "unknown" : "answered");
            case CRASH_EXIT -> json.numberNode(facts.exits().isEmpty() || facts.exits().get(0).status() == null
                    ? -1 : facts.exits().get(0).status());
            case RECONCILED -> json.textNode(readback(spec, facts)[0]);
            case CONSUMER_ACTION -> json.textNode(readback(spec, facts)[1]);
            case STATUS_STATE -> {
                JsonNode structured = statusStructured(facts);
                yield json.textNode(structured == null ? "no_reply" : structured.path("state").asText());
            }
            case IDENTITY_REFUSED -> json.booleanNode(refusesAsOwner(spec, statusStructured(facts)));
            case FIRST_ROUND -> {
                WireFacts.Call fresh = facts.wire().calls().stream()
                        .filter(c -> observation.operand().equals(c.arguments().path("operation_id").textValue()))
                        .findFirst().orElse(null);
                yield json.textNode(fresh != null && fresh.answered() && fresh.asReply().inputRequired() ? "input_required" : "missing");
            }
            case WATCHER_ROWS -> json.numberNode(facts.db().watchers().size());
            case FAILED_COMPENSATIONS -> json.numberNode(facts.db().compensations().stream()
                    .filter(c -> String.valueOf(c.get("outcome")).startsWith("failed:")).count());
            case STEP_EVENTS -> json.numberNode(facts.db().events().size());
        };
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

    private static List<Reply> successes(List<WireFacts.Call> continuations) {
        return continuations.stream().filter(WireFacts.Call::answered).map(WireFacts.Call::asReply).filter(r -> !r.refused()).toList();
    }

    private static ArrayNode replayedFlags(List<WireFacts.Call> continuations) {
        ArrayNode flags = JsonNodeFactory.instance.arrayNode();
        successes(continuations).stream().map(r -> r.structured().path("replayed").asBoolean()).sorted().forEach(flags::add);
        return flags;
    }

    /** The case's own identity: its operation id, alice, the matrix backend. */
    private static StatusReading.Identity owner(CaseSpec spec) {
        return new StatusReading.Identity(spec.id().operationId(), CaseSpec.PRINCIPAL, ServerSetup.BACKEND);
    }

    /**
     * The single status read-back, judged by the recovery consumer against the case's identity: the effect it
     * reconciles to and the consumer's next action.
     */
    private static String[] readback(CaseSpec spec, CaseFacts facts) {
        WireFacts.Call call = only(facts.wire().statusCalls());
        if (call == null || !call.answered() || call.asReply().refused()) {
            return new String[] {"no_status", "none"};
        }
        try {
            StatusReading.Settled settled = StatusReading.read(call.asReply().structured(), owner(spec));
            return new String[] {settled.effect(), settled.action()};
        } catch (IllegalArgumentException refused) {
            return new String[] {"refused: " + refused.getMessage(), "none"};
        }
    }

    private static JsonNode statusStructured(CaseFacts facts) {
        WireFacts.Call readback = only(facts.wire().statusCalls());
        return readback == null || !readback.answered() ? null : readback.asReply().structured();
    }

    private static boolean refusesAsOwner(CaseSpec spec, JsonNode structured) {
        if (structured == null) {
            return false;
        }
        try {
            StatusReading.read(structured, owner(spec));
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
        List<String> names = new ArrayList<>();
        outcome.fieldNames().forEachRemaining(names::add);
        names.sort(CanonicalJson.CODE_POINT_ORDER);
        names.forEach(n -> sorted.set(n, outcome.get(n)));
        return sorted;
    }
}
