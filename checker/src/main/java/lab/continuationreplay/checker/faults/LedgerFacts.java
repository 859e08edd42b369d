package lab.continuationreplay.checker.faults;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.history.FaultEvent.Outcome;
import lab.continuationreplay.history.StoreRows;

/**
 * One ledger's rows as the run left them (read-only), and what they must show given what the history says was
 * sent and answered. Counted in Java from plain {@code SELECT}s, so a query the ledger itself uses cannot hide a bug
 * from its judge.
 */
record LedgerFacts(Map<String, Operation> operations, List<Issue> issues) {
    record Operation(String id, String state, Long effectId, String result) {
        boolean hasResult() {
            return result != null;
        }

        boolean applied() {
            return "applied".equals(state) || "partial".equals(state);
        }
    }

    record Issue(long id, String title) {}

    static LedgerFacts read(Path file) throws SQLException {
        Map<String, Operation> operations = new LinkedHashMap<>();
        for (Map<String, Object> row : StoreRows.rows(file, "SELECT operation_id, state, effect_id, result FROM operations")) {
            Object effect = row.get("effect_id");
            operations.put(String.valueOf(row.get("operation_id")), new Operation(String.valueOf(row.get("operation_id")),
                    String.valueOf(row.get("state")), effect == null ? null : ((Number) effect).longValue(),
                    row.get("result") == null ? null : String.valueOf(row.get("result"))));
        }
        List<Issue> issues = new ArrayList<>();
        for (Map<String, Object> row : StoreRows.rows(file, "SELECT id, title FROM issues")) {
            issues.add(new Issue(((Number) row.get("id")).longValue(), String.valueOf(row.get("title"))));
        }
        return new LedgerFacts(operations, issues);
    }

    /**
     * What is wrong with these rows, given {@code events} (this ledger's SENT and ANSWER lines) and {@code prefix}
     * (operation ids under it must have been sent; null: the experiment shares its ledger with writes it does not
     * list); empty when everything holds.
     */
    List<String> problems(List<FaultEvent> events, String prefix) {
        List<String> problems = new ArrayList<>();
        duplicates(problems);
        Set<Long> issueIds = new HashSet<>();
        issues.forEach(i -> issueIds.add(i.id()));
        long applied = 0;
        long holdingFirstEffect = 0;
        for (Operation operation : operations.values()) {
            if (operation.applied()) {
                applied++;
                if (!operation.hasResult() || operation.effectId() == null || !issueIds.contains(operation.effectId())) {
                    problems.add("lost effect: " + operation.id() + " is " + operation.state() + " without its issue or result");
                }
            } else if ("in_progress".equals(operation.state()) && operation.effectId() != null) {
                holdingFirstEffect++;
            }
        }
        if (issues.size() != applied + holdingFirstEffect) {
            problems.add("issues " + issues.size() + " != applied or partial operations " + applied
                    + (holdingFirstEffect > 0 ? " + in-progress operations holding a first effect " + holdingFirstEffect : ""));
        }
        answered(events, problems);
        if (prefix != null) {
            Set<String> sent = new HashSet<>();
            events.stream().filter(e -> e.kind() == FaultEvent.Kind.SENT).forEach(e -> sent.add(e.operation()));
            operations.keySet().stream().filter(id -> id.startsWith(prefix) && !sent.contains(id)).sorted()
                    .forEach(id -> problems.add("a row for an operation never sent: " + id));
        }
        return problems;
    }

    private void duplicates(List<String> problems) {
        Map<Long, Integer> sharers = new HashMap<>();
        operations.values().stream().filter(o -> o.effectId() != null).forEach(o -> sharers.merge(o.effectId(), 1, Integer::sum));
        sharers.forEach((effect, count) -> {
            if (count > 1) {
                problems.add("duplicate: effect " + effect + " is shared by " + count + " operations");
            }
        });
        for (Issue issue : issues) {
            if (!sharers.containsKey(issue.id())) {
                problems.add("duplicate or lost ledger row: issue " + issue.id() + " ('" + issue.title() + "') has no operation");
            }
        }
        Map<String, Integer> byTitle = new LinkedHashMap<>();
        issues.forEach(i -> byTitle.merge(i.title(), 1, Integer::sum));
        byTitle.forEach((title, count) -> {
            if (count > 1) {
                problems.add("duplicate: title '" + title + "' has " + count + " issues");
            }
        });
    }

    /**
     * A success must have its applied row with the result it reported; a request never answered with a success nor
     * lost must have left no row at all, and one the design says must be refused neither succeeds nor leaves a row.
     */
    private void answered(List<FaultEvent> events, List<String> problems) {
        Map<String, Set<Outcome>> outcomes = new LinkedHashMap<>();
        events.stream().filter(e -> e.kind() == FaultEvent.Kind.ANSWER)
                .forEach(e -> outcomes.computeIfAbsent(e.operation(), o -> new HashSet<>()).add(e.outcome()));
        events.stream().filter(e -> e.kind() == FaultEvent.Kind.ANSWER && e.outcome() == Outcome.SUCCESS && e.observed() != null)
                .forEach(e -> {
                    Operation row = operations.get(e.operation());
                    if (row != null && row.applied() && !e.observed().equals(row.result())) {
                        problems.add("lost effect: " + e.operation() + " reported " + e.observed() + " but the stored result is " + row.result());
                    }
                });
        outcomes.forEach((id, seen) -> {
            Operation row = operations.get(id);
            if (seen.contains(Outcome.SUCCESS) && (row == null || !row.applied())) {
                problems.add("lost effect: " + id + " was answered with a success but its row is "
                        + (row == null ? "missing" : row.state()));
            }
            if (!seen.contains(Outcome.SUCCESS) && !seen.contains(Outcome.LOST) && row != null) {
                problems.add("accepted: " + id + " was never answered with a success but left a row (" + row.state() + ")");
            }
        });
        Set<String> mustRefuse = new HashSet<>();
        events.stream().filter(FaultEvent::mustRefuse).forEach(e -> mustRefuse.add(e.operation()));
        for (String id : mustRefuse) {
            if (outcomes.getOrDefault(id, Set.of()).contains(Outcome.SUCCESS)) {
                problems.add("accepted: " + id + " had to be refused but was answered with a success");
            } else if (operations.containsKey(id)) {
                problems.add("accepted: " + id + " had to be refused but left a row (" + operations.get(id).state() + ")");
            }
        }
    }
}
