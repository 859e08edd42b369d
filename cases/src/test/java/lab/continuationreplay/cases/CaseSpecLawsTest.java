package lab.continuationreplay.cases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What must hold of every case's spec, so that the checker can hold a history to it. */
class CaseSpecLawsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theFrozenOutcomeHasExactlyTheMembersTheSpecObservesPlusEffects() throws Exception {
        for (CaseSpec spec : every()) {
            Set<String> frozen = new TreeSet<>();
            JSON.readTree(spec.frozenOutcome()).fieldNames().forEachRemaining(frozen::add);
            Set<String> observed = new TreeSet<>(spec.outcome().keySet());
            observed.add("effects");
            assertEquals(frozen, observed, spec.id().toString());
        }
    }

    @Test
    void theFrozenEffectsAgreeWithTheRowTheCaseMustLeave() throws Exception {
        for (CaseSpec spec : every()) {
            JsonNode frozen = JSON.readTree(spec.frozenOutcome());
            assertEquals(spec.effect() == CaseSpec.Effect.NONE ? 0 : 1, frozen.path("effects").asInt(), spec.id().toString());
        }
    }

    @Test
    void everyCaseIsSpecifiedOnceUnderItsOwnId() {
        assertEquals(Arrays.asList(CaseId.values()), Cases.all().stream().map(CaseSpec::id).toList());
        for (int i = 0; i < CaseId.values().length; i++) {
            assertEquals(String.format("%02d", i + 1), CaseId.values()[i].number());
        }
    }

    /** The twelve frozen cases, the HTTP-only ones and the replica cells: the same laws hold of all. */
    private static java.util.List<CaseSpec> every() {
        java.util.List<CaseSpec> all = new java.util.ArrayList<>(Cases.all());
        all.addAll(lab.continuationreplay.cases.http.HttpCases.all());
        all.addAll(lab.continuationreplay.cases.replicas.ReplicaCases.cells(true));
        all.addAll(lab.continuationreplay.cases.replicas.ReplicaCases.cells(false));
        return all;
    }

    @Test
    void everyHttpCaseIsSpecifiedOnceUnderItsOwnIdWhichNoFrozenCaseHas() {
        assertEquals(Arrays.asList(HttpCaseId.values()),
                lab.continuationreplay.cases.http.HttpCases.all().stream().map(CaseSpec::id).toList());
        for (HttpCaseId id : HttpCaseId.values()) {
            assertEquals("h" + (id.ordinal() + 1), id.number());
            assertThrows(IllegalArgumentException.class, () -> CaseId.of(id.number()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HttpCaseId.of("h9"));
        assertEquals("no HTTP case h9 (the HTTP cases are h1..h3)", e.getMessage());
    }

    @Test
    void everyKindOfObservationIsUsedByACase() {
        Set<Observation.Kind> used = EnumSet.noneOf(Observation.Kind.class);
        every().forEach(s -> s.outcome().values().forEach(o -> used.add(o.kind())));
        assertEquals(EnumSet.allOf(Observation.Kind.class), used, "a kind no case uses is dead code in the checker");
    }

    @Test
    void anUnknownCaseIdIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CaseId.of("13"));
        assertEquals("no frozen case 13 (the cases are 01..12)", e.getMessage());
    }

    @Test
    void theCrossSdkCellHoldsCase09ToTheSameSpec() {
        CaseSpec nine = Cases.spec(CaseId.CRASH_AFTER_COMMIT);
        CaseSpec cell = Cases.acrossSdks(ServerChoice.JAVA, ServerChoice.TYPESCRIPT);
        assertEquals(nine.outcome(), cell.outcome());
        assertEquals(nine.frozenOutcome(), cell.frozenOutcome());
        assertEquals(nine.exitStatuses(), cell.exitStatuses());
    }

    @Test
    void controlsHaveDistinctFolders() {
        Set<String> folders = new HashSet<>();
        for (Control control : Control.values()) {
            assertEquals(true, folders.add(control.folder()), control.folder());
        }
    }

    @Test
    void anOutcomeMemberGivenTwiceIsRefused() {
        CaseSpec.Builder builder = CaseSpec.of(CaseId.IDENTICAL_RETRY).observe("same_result", Observation.of(Observation.Kind.SAME_RESULT));
        assertThrows(IllegalArgumentException.class, () -> builder.observe("same_result", Observation.of(Observation.Kind.SAME_RESULT)));
        assertThrows(IllegalArgumentException.class, () -> builder.observe("effects", Observation.of(Observation.Kind.OPERATION_ROWS)));
    }
}
