package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

class GuardedIssueArgumentsTest {
    private static void rejects(Object operationId, Object title, Object mode, String message) {
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> GuardedIssueArguments.of(operationId, title, mode));
        assertEquals(message, e.getMessage());
    }

    @Test
    void modeDefaultsToAtomic() {
        assertEquals(new GuardedIssueArguments("case-01", "guarded-01", GuardedIssueArguments.Mode.ATOMIC),
                GuardedIssueArguments.of("case-01", "guarded-01", null));
    }

    @Test
    void explicitModes() {
        assertEquals(GuardedIssueArguments.Mode.ATOMIC, GuardedIssueArguments.of("a", "t", "atomic").mode());
        assertEquals(new GuardedIssueArguments("case-12", "guarded-12", GuardedIssueArguments.Mode.PARTIAL),
                GuardedIssueArguments.of("case-12", "guarded-12", "partial"));
        assertEquals("atomic", GuardedIssueArguments.Mode.ATOMIC.wire());
        assertEquals("partial", GuardedIssueArguments.Mode.PARTIAL.wire());
    }

    @Test
    void anyOtherModeIsRefused() {
        for (Object mode : List.of("other", "", "ATOMIC", "Partial", 1, true)) {
            rejects("case-01", "guarded-01", mode, "mode must be 'atomic' or 'partial'");
        }
    }

    @Test
    void operationIdAndTitleAreRequiredNonEmptyStrings() {
        rejects("", "guarded-01", null, "operation_id and title are required");
        rejects(null, "guarded-01", null, "operation_id and title are required");
        rejects(1, "guarded-01", null, "operation_id and title are required");
        rejects("case-01", "", null, "operation_id and title are required");
        rejects("case-01", null, null, "operation_id and title are required");
        rejects("case-01", 5, "atomic", "operation_id and title are required");
        rejects("case-01", true, "partial", "operation_id and title are required");
    }

    @Test
    void requiredFieldsAreCheckedBeforeMode() {
        rejects("", "guarded-01", "other", "operation_id and title are required");
    }

    @Test
    void operationIdIsLimitedTo256Characters() {
        assertEquals("x".repeat(256), GuardedIssueArguments.of("x".repeat(256), "t", null).operationId());
        rejects("x".repeat(257), "t", null, "operation_id is longer than 256 characters");
    }

    @Test
    void titleIsLimitedTo65536Characters() {
        assertEquals(65_536, GuardedIssueArguments.of("a", "t".repeat(65_536), null).title().length());
        rejects("a", "t".repeat(65_537), null, "title is longer than 65536 characters");
    }

    @Test
    void lengthsAreCheckedBeforeMode() {
        rejects("x".repeat(257), "t", "other", "operation_id is longer than 256 characters");
        rejects("a", "t".repeat(65_537), "other", "title is longer than 65536 characters");
    }

    @Test
    void fingerprintArgumentsBindTheDefaultedMode() throws Exception {
        assertEquals("{\"operation_id\":\"case-01\",\"title\":\"guarded-01\",\"mode\":\"atomic\"}",
                ExactJson.mapper().writeValueAsString(
                        GuardedIssueArguments.of("case-01", "guarded-01", null).fingerprintArguments()));
        assertEquals(ExactJson.parse("{\"operation_id\":\"case-12\",\"title\":\"guarded-12\",\"mode\":\"partial\"}"),
                GuardedIssueArguments.of("case-12", "guarded-12", "partial").fingerprintArguments());
    }
}
