package lab.continuationreplay.store.readback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StoredResultsTest {
    static Stream<Arguments> table() {
        List<Long> none = List.of();
        List<Long> one = List.of(1L);
        List<Long> seven = List.of(7L);
        List<Long> two = List.of(1L, 2L);
        return Stream.of(
                // applied: exactly one id and "created <id>" or "created <id> with watcher"
                Arguments.of(EffectState.APPLIED, one, "created 1", true),
                Arguments.of(EffectState.APPLIED, one, "created 1 with watcher", true),
                Arguments.of(EffectState.APPLIED, seven, "created 7", true),
                Arguments.of(EffectState.APPLIED, seven, "created 7 with watcher", true),
                Arguments.of(EffectState.APPLIED, one, "created 2", false),
                Arguments.of(EffectState.APPLIED, seven, "created 1", false),
                Arguments.of(EffectState.APPLIED, one, "created 1 ", false),
                Arguments.of(EffectState.APPLIED, one, "Created 1", false),
                Arguments.of(EffectState.APPLIED, one, "created 01", false),
                Arguments.of(EffectState.APPLIED, one, "", false),
                Arguments.of(EffectState.APPLIED, one, null, false),
                Arguments.of(EffectState.APPLIED, none, "created 1", false),
                Arguments.of(EffectState.APPLIED, none, null, false),
                Arguments.of(EffectState.APPLIED, two, "created 1", false),
                Arguments.of(EffectState.APPLIED, one, "partial 1; watcher failed; rollback failed", false),
                Arguments.of(EffectState.APPLIED, one, "partial 1; watcher failed; rollback succeeded", false),
                // partial: exactly one id and one of the two partial texts
                Arguments.of(EffectState.PARTIAL, one, "partial 1; watcher failed; rollback succeeded", true),
                Arguments.of(EffectState.PARTIAL, one, "partial 1; watcher failed; rollback failed", true),
                Arguments.of(EffectState.PARTIAL, seven, "partial 7; watcher failed; rollback failed", true),
                Arguments.of(EffectState.PARTIAL, seven, "partial 1; watcher failed; rollback failed", false),
                Arguments.of(EffectState.PARTIAL, one, "partial 1", false),
                Arguments.of(EffectState.PARTIAL, one, "partial", false),
                Arguments.of(EffectState.PARTIAL, one, "created 1", false),
                Arguments.of(EffectState.PARTIAL, one, null, false),
                Arguments.of(EffectState.PARTIAL, none, "partial 1; watcher failed; rollback failed", false),
                Arguments.of(EffectState.PARTIAL, two, "partial 1; watcher failed; rollback failed", false),
                // any other state: the result must be null
                Arguments.of(EffectState.UNKNOWN, none, null, true),
                Arguments.of(EffectState.UNKNOWN, one, null, true),
                Arguments.of(EffectState.UNKNOWN, none, "created 1", false),
                Arguments.of(EffectState.UNKNOWN, one, "created 1", false),
                Arguments.of(EffectState.UNKNOWN, none, "", false),
                Arguments.of(EffectState.NOT_APPLIED, none, null, true),
                Arguments.of(EffectState.NOT_APPLIED, none, "created 1", false),
                Arguments.of(EffectState.NOT_APPLIED, none, "partial 1; watcher failed; rollback failed", false));
    }

    @ParameterizedTest
    @MethodSource("table")
    void matchesEffect(EffectState state, List<Long> ids, String result, boolean expected) {
        assertEquals(expected, StoredResults.matchesEffect(state, ids, result));
    }
}
