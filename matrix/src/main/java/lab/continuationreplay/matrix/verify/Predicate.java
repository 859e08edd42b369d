package lab.continuationreplay.matrix.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.matrix.evidence.CaseFacts;
import lab.continuationreplay.matrix.evidence.Outcomes;
import lab.continuationreplay.matrix.evidence.WireFacts;
import lab.continuationreplay.core.client.Reply;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.vectors.CanonicalJson;

/**
 * The independent check of one case (seed spec §9.14): the physical rows, the protocol, the shape of the call
 * sequence, and the semantic outcome against the frozen one. Returns every violation, empty when the case passes.
 */
public final class Predicate {
    private static final Set<String> NO_EFFECT = Set.of("02", "11");
    private static final Map<String, Integer> MIN_CONTINUATIONS = Map.ofEntries(
            Map.entry("01", 2), Map.entry("04", 2), Map.entry("05", 3), Map.entry("06", 2), Map.entry("07", 2),
            Map.entry("08", 2), Map.entry("10", 4), Map.entry("12", 2), Map.entry("03", 1), Map.entry("09", 1),
            Map.entry("11", 1), Map.entry("02", 0));

    private Predicate() {}

    /** Cases whose refusals come from the guard (one per case at least), and those with an SDK-side state refusal. */
    private static final Set<String> GUARD_REFUSALS = Set.of("04", "05", "06", "07", "10", "11");
    private static final Set<String> STATE_REFUSALS = Set.of("05", "06", "10");

    /** The SDK-independent checks, plus how this SDK must shape its refusals (seed spec §9.14, per-SDK additions). */
    public static List<String> violations(CaseFacts facts, String sdk) {
        List<String> problems = violations(facts);
        String guardShape = switch (sdk) {
            case "java" -> "jsonrpc_error";
            case "typescript" -> "tool_result_isError";
            default -> null; // cross-SDK cells mix both
        };
        if (guardShape == null) {
            return problems;
        }
        List<Reply> refusals = facts.wire().calls().stream().filter(WireFacts.Call::answered).map(WireFacts.Call::asReply)
                .filter(Reply::refused).toList();
        boolean guardRefusalShaped = refusals.stream().filter(r -> !Reply.STATE_REJECTED.equals(r.mechanism()))
                .allMatch(r -> shape(r).equals(guardShape));
        if (GUARD_REFUSALS.contains(facts.caseId())
                && (!guardRefusalShaped || refusals.stream().noneMatch(r -> !Reply.STATE_REJECTED.equals(r.mechanism())))) {
            problems.add(sdk + " must refuse through " + guardShape);
        }
        boolean stateRefusalShaped = refusals.stream().filter(r -> Reply.STATE_REJECTED.equals(r.mechanism()))
                .allMatch(r -> r.raw().path("error").path("code").asInt() == -32602
                        && "invalid_request_state".equals(r.raw().path("error").path("data").path("reason").asText()));
        if (STATE_REFUSALS.contains(facts.caseId())
                && (!stateRefusalShaped || refusals.stream().noneMatch(r -> Reply.STATE_REJECTED.equals(r.mechanism())))) {
            problems.add(sdk + " must refuse the state as JSON-RPC -32602 with data.reason invalid_request_state");
        }
        return problems;
    }

    private static String shape(Reply reply) {
        return reply.raw().has("error") ? "jsonrpc_error" : "tool_result_isError";
    }

    public static List<String> violations(CaseFacts facts) {
        List<String> problems = new ArrayList<>();
        String id = facts.caseId();
        rows(facts, id, problems);
        WireFacts wire = facts.wire();
        for (WireFacts.NonFrame line : wire.nonFrames()) {
            problems.add("server defect: process " + line.process() + " wrote a non-frame line to stdout: " + line.start());
        }
        if (!wire.protocolVersions().equals(List.of("2026-07-28"))) {
            problems.add("protocol versions " + wire.protocolVersions());
        }
        if (wire.calls().stream().noneMatch(c -> "create_guarded_issue".equals(c.tool()))) {
            problems.add("no create_guarded_issue call");
        }
        int continuations = wire.continuations().size();
        if (continuations < MIN_CONTINUATIONS.get(id)) {
            problems.add("only " + continuations + " continuation calls");
        }
        if (id.equals("02") && continuations != 0) {
            problems.add("case 02 must never continue");
        }
        if (id.equals("11") && wire.continuations().stream().noneMatch(c -> !c.statePresent())) {
            problems.add("case 11 sent no continuation without requestState");
        }
        for (CaseFacts.ProcessExit exit : facts.exits()) {
            boolean crashed = (id.equals("03") || id.equals("09")) && exit.name().equals("crash");
            int expected = crashed ? 70 : 0;
            if (exit.status() == null || exit.status() != expected) {
                problems.add("process " + exit.name() + " exited " + exit.status() + ", expected " + expected);
            }
        }
        JsonNode outcome = Outcomes.derive(facts);
        JsonNode expected = ExpectedOutcomes.of(id);
        // compared as canonical text: 2 is 2 whether Jackson holds it as an int or a long
        if (!CanonicalJson.canonical(outcome).equals(CanonicalJson.canonical(expected))) {
            problems.add("outcome " + outcome + " differs from the frozen " + expected);
        }
        return problems;
    }

    private static void rows(CaseFacts facts, String id, List<String> problems) {
        int expectedRows = NO_EFFECT.contains(id) ? 0 : 1;
        if (facts.db().issues().size() != expectedRows || facts.db().operations().size() != expectedRows) {
            problems.add(facts.db().issues().size() + " issues and " + facts.db().operations().size()
                    + " operations, expected " + expectedRows + " of each");
            return;
        }
        if (expectedRows == 1) {
            Map<String, Object> issue = facts.db().issues().get(0);
            Map<String, Object> operation = facts.db().operations().get(0);
            check(problems, "operation id", "case-" + id, operation.get("operation_id"));
            check(problems, "principal", "alice", operation.get("principal"));
            check(problems, "backend", WireSettings.BACKEND, operation.get("backend"));
            check(problems, "effect id", ((Number) issue.get("id")).longValue(), ((Number) operation.get("effect_id")).longValue());
            check(problems, "title", "guarded-" + id, issue.get("title"));
            check(problems, "body", "alpha", issue.get("body"));
            check(problems, "state", id.equals("12") ? "partial" : "applied", operation.get("state"));
        }
        boolean steps = !facts.db().watchers().isEmpty() || !facts.db().compensations().isEmpty() || !facts.db().events().isEmpty();
        if (!id.equals("12") && steps) {
            problems.add("watchers, compensations or events outside case 12");
        }
        if (id.equals("12")) {
            List<String> events = facts.db().events().stream()
                    .map(e -> e.get("step") + "/" + e.get("outcome") + "/" + e.get("error_type")).toList();
            check(problems, "events", List.of("watcher/attempted/null", "watcher/failed/SyntheticWatcherFailure",
                    "rollback_issue/attempted/null", "rollback_issue/failed/SyntheticCompensationFailure"), events);
            check(problems, "compensation", "failed:SyntheticCompensationFailure",
                    facts.db().compensations().isEmpty() ? null : facts.db().compensations().get(0).get("outcome"));
        }
    }

    private static void check(List<String> problems, String what, Object expected, Object actual) {
        if (!expected.equals(actual)) {
            problems.add(what + " is " + actual + ", expected " + expected);
        }
    }
}
