package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The argument rules live in the shared table {@code vectors/rules/guarded-arguments.json}, which
 * {@code ts-fixture/test/guarded-arguments.test.ts} reads too; this class adds what only Java has.
 */
class GuardedIssueArgumentsTest {
    static List<RuleTable.Case> sharedTable() {
        return RuleTable.load("guarded-arguments.json").cases(RuleTable.JAVA);
    }

    /** A member as the Java SDK hands it over: a plain Java value; absent and JSON null are both null. */
    private static Object member(JsonNode arguments, String name) {
        JsonNode value = arguments.get(name);
        return value == null ? null : ExactJson.mapper().convertValue(value, Object.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedTable")
    void theSharedTable(RuleTable.Case rule) {
        JsonNode arguments = rule.row().get("arguments");
        Object operationId = member(arguments, "operation_id");
        Object title = member(arguments, "title");
        Object mode = member(arguments, "mode");
        JsonNode expected = rule.expected();
        if (expected.has("accepted")) {
            assertEquals(expected.get("accepted"), GuardedIssueArguments.of(operationId, title, mode).fingerprintArguments(),
                    rule.name());
        } else {
            InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                    () -> GuardedIssueArguments.of(operationId, title, mode), rule.name());
            assertEquals(expected.get("error").textValue(), e.getMessage(), rule.name());
        }
    }

    @Test
    void theModeIsAnEnum() {
        assertEquals(new GuardedIssueArguments("case-12", "guarded-12", GuardedIssueArguments.Mode.PARTIAL),
                GuardedIssueArguments.of("case-12", "guarded-12", "partial"));
        assertEquals("atomic", GuardedIssueArguments.Mode.ATOMIC.wire());
        assertEquals("partial", GuardedIssueArguments.Mode.PARTIAL.wire());
    }

    @Test
    void fingerprintArgumentsBindTheDefaultedModeInThisOrder() throws Exception {
        assertEquals("{\"operation_id\":\"case-01\",\"title\":\"guarded-01\",\"mode\":\"atomic\"}",
                ExactJson.mapper().writeValueAsString(
                        GuardedIssueArguments.of("case-01", "guarded-01", null).fingerprintArguments()));
    }
}
