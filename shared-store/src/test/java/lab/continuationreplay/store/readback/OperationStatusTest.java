package lab.continuationreplay.store.readback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

class OperationStatusTest {
    private static final OperationIdentity OP = new OperationIdentity("case-01", "alice", "sqlite:guarded-matrix");
    private static final String SCOPE = "operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'";

    private static EffectObservation applied() {
        return new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.APPLIED, List.of(1L),
                "operation ledger and effect row are present", "created 1", OP);
    }

    @Test
    void appliedStatusJsonHasTheSeedsKeyOrder() throws Exception {
        String expected = "{\"operationId\":\"case-01\",\"principal\":\"alice\",\"backend\":\"sqlite:guarded-matrix\","
                + "\"observedAt\":\"2026-09-22T00:00:00+00:00\",\"authoritative\":true,\"freshWriteAuthorized\":false,"
                + "\"scope\":\"operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'\","
                + "\"scopeBinding\":{\"operationId\":\"case-01\",\"principal\":\"alice\",\"backend\":\"sqlite:guarded-matrix\"},"
                + "\"state\":\"applied\",\"matchingIds\":[1],\"detail\":\"operation ledger and effect row are present\","
                + "\"storedResult\":\"created 1\"}";
        OperationStatus status = OperationStatus.of(applied());
        assertEquals(expected, ExactJson.mapper().writeValueAsString(status.toJson()));
        assertEquals(expected, ExactJson.mapper().writeValueAsString(status));
    }

    @Test
    void unknownStatusJsonCarriesANullStoredResult() throws Exception {
        OperationIdentity bob = new OperationIdentity("case-06", "bob", "sqlite:guarded-matrix");
        EffectObservation unknown = new EffectObservation(bob, "2026-09-22T00:02:00+00:00", true,
                "operation_id='case-06'; principal='bob'; backend='sqlite:guarded-matrix'", EffectState.UNKNOWN, List.of(),
                "no durable operation record; absence is not terminal non-application proof", null, bob);
        String expected = "{\"operationId\":\"case-06\",\"principal\":\"bob\",\"backend\":\"sqlite:guarded-matrix\","
                + "\"observedAt\":\"2026-09-22T00:02:00+00:00\",\"authoritative\":true,\"freshWriteAuthorized\":false,"
                + "\"scope\":\"operation_id='case-06'; principal='bob'; backend='sqlite:guarded-matrix'\","
                + "\"scopeBinding\":{\"operationId\":\"case-06\",\"principal\":\"bob\",\"backend\":\"sqlite:guarded-matrix\"},"
                + "\"state\":\"unknown\",\"matchingIds\":[],"
                + "\"detail\":\"no durable operation record; absence is not terminal non-application proof\","
                + "\"storedResult\":null}";
        assertEquals(expected, ExactJson.mapper().writeValueAsString(OperationStatus.of(unknown).toJson()));
    }

    @Test
    void partialStatusJson() throws Exception {
        EffectObservation partial = new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.PARTIAL,
                List.of(3L), "operation ledger records a partial effect", "partial 3; watcher failed; rollback failed", OP);
        assertEquals("{\"operationId\":\"case-01\",\"principal\":\"alice\",\"backend\":\"sqlite:guarded-matrix\","
                + "\"observedAt\":\"2026-09-22T00:00:00+00:00\",\"authoritative\":true,\"freshWriteAuthorized\":false,"
                + "\"scope\":\"" + SCOPE + "\","
                + "\"scopeBinding\":{\"operationId\":\"case-01\",\"principal\":\"alice\",\"backend\":\"sqlite:guarded-matrix\"},"
                + "\"state\":\"partial\",\"matchingIds\":[3],\"detail\":\"operation ledger records a partial effect\","
                + "\"storedResult\":\"partial 3; watcher failed; rollback failed\"}",
                ExactJson.mapper().writeValueAsString(OperationStatus.of(partial).toJson()));
    }

    @Test
    void toJsonFieldOrder() {
        List<String> names = new ArrayList<>();
        OperationStatus.of(applied()).toJson().fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("operationId", "principal", "backend", "observedAt", "authoritative", "freshWriteAuthorized",
                "scope", "scopeBinding", "state", "matchingIds", "detail", "storedResult"), names);
    }

    @Test
    void ofCopiesTheObservation() {
        assertEquals(new OperationStatus("case-01", "alice", "sqlite:guarded-matrix", "2026-09-22T00:00:00+00:00", true,
                false, SCOPE, new OperationStatus.ScopeBinding("case-01", "alice", "sqlite:guarded-matrix"), "applied",
                List.of(1L), "operation ledger and effect row are present", "created 1"), OperationStatus.of(applied()));
        assertEquals(new OperationStatus.ScopeBinding("case-01", "alice", "sqlite:guarded-matrix"),
                OperationStatus.ScopeBinding.of(OP));
    }

    @Test
    void aNonAuthoritativeObservationIsNotAStatus() {
        EffectObservation diagnostic = new EffectObservation(OP, "2026-09-22T00:00:00+00:00", false, "issue.title == 't'",
                EffectState.APPLIED, List.of(1L), "1 issue(s) matching title", null, OP);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OperationStatus.of(diagnostic));
        assertEquals("only an authoritative, identity-bound observation is a status", e.getMessage());
    }

    @Test
    void anUnboundObservationIsNotAStatus() {
        EffectObservation unbound = new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE, EffectState.APPLIED,
                List.of(1L), "d", "created 1", null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OperationStatus.of(unbound));
        assertEquals("only an authoritative, identity-bound observation is a status", e.getMessage());
        EffectObservation otherBinding = new EffectObservation(OP, "2026-09-22T00:00:00+00:00", true, SCOPE,
                EffectState.APPLIED, List.of(1L), "d", "created 1", new OperationIdentity("case-01", "bob", "sqlite:guarded-matrix"));
        assertThrows(IllegalArgumentException.class, () -> OperationStatus.of(otherBinding));
    }

    @Test
    void effectObservationDefaultsAndCopies() {
        List<Long> ids = new ArrayList<>(List.of(4L));
        EffectObservation observation = new EffectObservation(OP, "t", true, "s", EffectState.APPLIED, ids, null, "created 4", OP);
        ids.add(5L);
        assertEquals(List.of(4L), observation.matchingIds());
        assertEquals("", observation.detail());
        assertEquals(1, observation.effects());
    }

    @Test
    void effectStateWireNames() {
        assertEquals("not_applied", EffectState.NOT_APPLIED.wire());
        assertEquals("applied", EffectState.APPLIED.wire());
        assertEquals("partial", EffectState.PARTIAL.wire());
        assertEquals("unknown", EffectState.UNKNOWN.wire());
        assertEquals(java.util.Optional.of(EffectState.PARTIAL), EffectState.fromWire("partial"));
        assertEquals(java.util.Optional.empty(), EffectState.fromWire("APPLIED"));
        assertEquals(java.util.Optional.empty(), EffectState.fromWire(null));
    }
}
