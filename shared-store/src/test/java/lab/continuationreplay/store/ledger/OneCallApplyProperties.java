package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;
import static lab.continuationreplay.store.ledger.LedgerTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.postgres.TestPostgres;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * On PostgreSQL an unarmed atomic apply runs as one call of {@code ledger_apply_atomic}, and an apply armed with a
 * fault hook runs statement by statement (so a cut point lands between two statements). The law: both decide alike.
 * The same sequence of applies (two operation ids, two principals, three fingerprints, bounded or not, at clock
 * readings before and past the deadlines) on two fresh ledgers, one per path, gives the same answer or the same
 * refusal at every step and leaves the same rows, wall-clock stamps aside.
 */
class OneCallApplyProperties {
    /** Armed but never halting: the statement path, with nothing else changed. */
    private static final FaultHook STATEMENTS = point -> {};
    private static final Deadlines WINDOW = Deadlines.of(100, 110, 120);

    record Step(String operationId, String principal, String fingerprint, boolean bounded, long now) {}

    @Provide
    Arbitrary<List<Step>> sequences() {
        return Combinators.combine(Arbitraries.of("op-a", "op-b"), Arbitraries.of("alice", "alice", "bob"),
                Arbitraries.of("fp-1", "fp-1", "fp-2"), Arbitraries.of(true, false), Arbitraries.longs().between(95, 125))
                .as(Step::new).list().ofMinSize(1).ofMaxSize(8);
    }

    @Property(tries = 25)
    void theOneCallAndTheStatementsGiveTheSameAnswersAndRows(@ForAll("sequences") List<Step> steps) throws Exception {
        LedgerLocation.Postgres oneCall = TestPostgres.freshLedger();
        LedgerLocation.Postgres statements = TestPostgres.freshLedger();
        List<String> answersOneCall = new ArrayList<>();
        List<String> answersStatements = new ArrayList<>();
        try (IssueLedger a = IssueLedger.open(oneCall, BACKEND); IssueLedger b = IssueLedger.open(statements, BACKEND)) {
            for (Step step : steps) {
                answersOneCall.add(answer(a, step, FaultHook.NONE));
                answersStatements.add(answer(b, step, STATEMENTS));
            }
        }
        assertEquals(answersStatements, answersOneCall, "the answers, step by step");
        assertEquals(stateOf(statements), stateOf(oneCall), "the rows");
    }

    private static String answer(IssueLedger ledger, Step step, FaultHook hook) throws Exception {
        OperationIdentity identity = new OperationIdentity(step.operationId(), step.principal(), BACKEND);
        ApplyRequest request = step.bounded()
                ? ApplyRequest.at(identity, step.fingerprint(), "title " + step.fingerprint(), "body", WINDOW, step.now())
                : ApplyRequest.unbounded(identity, step.fingerprint(), "title " + step.fingerprint(), "body");
        try {
            return ledger.applyIssueOnce(request, hook).toString();
        } catch (RuntimeException refused) {
            return refused.getClass().getSimpleName() + ": " + refused.getMessage();
        }
    }

    private static List<Map<String, Object>> stateOf(LedgerLocation location) throws Exception {
        List<Map<String, Object>> state = new ArrayList<>(rows(location,
                "SELECT operation_id, principal, backend, request_fingerprint, state, effect_id, result, issued_at,"
                        + " authority_expires_at, replay_expires_at FROM operations ORDER BY operation_id, principal"));
        state.addAll(rows(location, "SELECT id, title, body FROM issues ORDER BY id"));
        return state;
    }
}
