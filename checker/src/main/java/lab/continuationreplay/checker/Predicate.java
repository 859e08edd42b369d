package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The independent check of one case (seed spec §9.14), held to the case's spec: the physical rows, the protocol, the
 * shape of the call sequence, the exits, and the semantic outcome against the frozen one. Returns every violation,
 * empty when the case passes.
 */
public final class Predicate {
    private Predicate() {}

    /** How each SDK under test shapes a refusal by the guard; an attempt not named here (a cross-SDK cell) mixes both. */
    private static final Map<String, String> GUARD_SHAPE = Map.of("java", "jsonrpc_error", "typescript", "tool_result_isError");

    /**
     * The SDK-independent checks, plus how this SDK must shape its refusals (seed spec §9.14, per-SDK additions), over
     * either transport: {@code attempt} is the attempt's name ({@code java}, {@code java-http}, {@code http-cases-java}).
     */
    public static List<String> violations(CaseSpec spec, CaseFacts facts, String attempt) {
        List<String> problems = violations(spec, facts);
        String sdk = lab.continuationreplay.history.Layout.sdkOf(attempt);
        String guardShape = GUARD_SHAPE.get(sdk);
        if (guardShape == null) {
            return problems;
        }
        List<Reply> refusals = facts.wire().calls().stream().filter(WireFacts.Call::answered).map(WireFacts.Call::asReply)
                .filter(Reply::refused).toList();
        List<Reply> byGuard = refusals.stream().filter(r -> !Reply.STATE_REJECTED.equals(r.mechanism())).toList();
        List<Reply> ofState = refusals.stream().filter(r -> Reply.STATE_REJECTED.equals(r.mechanism())).toList();
        if (spec.refusals().contains(CaseSpec.Refusal.GUARD)
                && (byGuard.isEmpty() || !byGuard.stream().allMatch(r -> shape(r).equals(guardShape)))) {
            problems.add(sdk + " must refuse through " + guardShape);
        }
        if (spec.refusals().contains(CaseSpec.Refusal.STATE) && (ofState.isEmpty() || !ofState.stream().allMatch(Reply::isStateRefusal))) {
            problems.add(sdk + " must refuse the state as JSON-RPC -32602 with data.reason invalid_request_state");
        }
        return problems;
    }

    private static String shape(Reply reply) {
        return reply.raw().has("error") ? "jsonrpc_error" : "tool_result_isError";
    }

    public static List<String> violations(CaseSpec spec, CaseFacts facts) {
        List<String> problems = new ArrayList<>();
        rows(spec, facts, problems);
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
        if (continuations < spec.minContinuations()) {
            problems.add("only " + continuations + " continuation calls");
        }
        for (CaseSpec.WireRule rule : spec.wireRules()) {
            switch (rule) {
                case NEVER_CONTINUES -> {
                    if (continuations != 0) {
                        problems.add("case " + spec.id().number() + " must never continue");
                    }
                }
                case SENDS_STATELESS_CONTINUATION -> {
                    if (wire.continuations().stream().allMatch(WireFacts.Call::statePresent)) {
                        problems.add("case " + spec.id().number() + " sent no continuation without requestState");
                    }
                }
            }
        }
        for (CaseFacts.ProcessExit exit : facts.exits()) {
            int expected = spec.exitStatus(exit.name());
            if (exit.status() == null || exit.status() != expected) {
                problems.add("process " + exit.name() + " exited " + exit.status() + ", expected " + expected);
            }
        }
        JsonNode outcome = Outcome.derive(spec, facts);
        JsonNode expected = ExactJson.parse(spec.frozenOutcome());
        // compared as canonical text: 2 is 2 whether Jackson holds it as an int or a long
        if (!CanonicalJson.canonical(outcome).equals(CanonicalJson.canonical(expected))) {
            problems.add("outcome " + outcome + " differs from the frozen " + expected);
        }
        return problems;
    }

    private static void rows(CaseSpec spec, CaseFacts facts, List<String> problems) {
        int expectedRows = spec.effect() == CaseSpec.Effect.NONE ? 0 : 1;
        DbFacts db = facts.db();
        if (db.issues().size() != expectedRows || db.operations().size() != expectedRows) {
            problems.add(db.issues().size() + " issues and " + db.operations().size() + " operations, expected "
                    + expectedRows + " of each");
            return;
        }
        if (expectedRows == 1) {
            Map<String, Object> issue = db.issues().get(0);
            Map<String, Object> operation = db.operations().get(0);
            check(problems, "operation id", spec.id().operationId(), operation.get("operation_id"));
            check(problems, "principal", CaseSpec.PRINCIPAL, operation.get("principal"));
            check(problems, "backend", ServerSetup.BACKEND, operation.get("backend"));
            check(problems, "effect id", ((Number) issue.get("id")).longValue(), ((Number) operation.get("effect_id")).longValue());
            check(problems, "title", spec.id().title(), issue.get("title"));
            check(problems, "body", CaseSpec.BODY, issue.get("body"));
            check(problems, "state", spec.effect().state(), operation.get("state"));
        }
        boolean stepRows = !db.watchers().isEmpty() || !db.compensations().isEmpty() || !db.events().isEmpty();
        if (spec.steps() == null) {
            if (stepRows) {
                problems.add("watchers, compensations or events in a case that must leave none");
            }
            return;
        }
        List<String> events = db.events().stream().map(e -> e.get("step") + "/" + e.get("outcome") + "/" + e.get("error_type")).toList();
        check(problems, "events", spec.steps().events(), events);
        check(problems, "compensation", spec.steps().compensation(),
                db.compensations().isEmpty() ? null : db.compensations().get(0).get("outcome"));
    }

    private static void check(List<String> problems, String what, Object expected, Object actual) {
        if (!expected.equals(actual)) {
            problems.add(what + " is " + actual + ", expected " + expected);
        }
    }
}
