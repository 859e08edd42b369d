package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.cases.ServerSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each violation the predicate can find, on a small hand-written history of case 01 (a transcript, rows, exits):
 * the defect planted gives exactly its problem, and the history without it does not. The checker is the judge of
 * every verdict, so each of its verdicts is tested on evidence no runner wrote.
 */
class PredicateVerdictsTest {
    @TempDir
    Path folder;

    private static final CaseSpec SPEC = Cases.spec(CaseId.of("01"));
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"%s\"}";

    private static String call(int id, String tool, String version, boolean continuation) {
        String state = continuation ? ",\"requestState\":\"s1\",\"inputResponses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"b\"}}}" : "";
        return "> {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{\"operation_id\":\"" + SPEC.id().operationId() + "\",\"title\":\"" + SPEC.id().title() + "\"}" + state + ","
                + String.format(META, version) + "}}";
    }

    /** The history's parts, each replaceable by a test. */
    private final class History {
        String version = "2026-07-28";
        String tool = "create_guarded_issue";
        boolean continues = true;
        List<String> extraLines = new ArrayList<>();
        String principal = CaseSpec.PRINCIPAL;
        int issues = 1;
        List<Map<String, Object>> events = List.of();
        Integer exit = 0;

        List<String> problems() throws Exception {
            List<String> lines = new ArrayList<>(extraLines);
            lines.add(call(1, tool, version, false));
            lines.add("< {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"s1\","
                    + "\"inputRequests\":{\"body\":{\"method\":\"elicitation/create\",\"params\":{}}}}}");
            if (continues) {
                lines.add(call(2, tool, version, true));
                lines.add("< {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[],\"structuredContent\":{\"result\":\"created 1\","
                        + "\"replayed\":false,\"state\":\"applied\"}}}");
            }
            Files.write(folder.resolve("server.transcript.log"), lines);
            List<Map<String, Object>> issueRows = new ArrayList<>();
            List<Map<String, Object>> operationRows = new ArrayList<>();
            for (int i = 1; i <= issues; i++) {
                issueRows.add(new LinkedHashMap<>(Map.of("id", (long) i, "title", SPEC.id().title(), "body", CaseSpec.BODY)));
                operationRows.add(new LinkedHashMap<>(Map.of("operation_id", SPEC.id().operationId(), "principal", principal,
                        "backend", ServerSetup.BACKEND, "state", SPEC.effect().state(), "effect_id", (long) i)));
            }
            CaseFacts facts = new CaseFacts(WireFacts.read(folder, List.of("server")),
                    new DbFacts(issueRows, operationRows, List.of(), List.of(), events), List.of(new CaseFacts.ProcessExit("server", exit)));
            return Predicate.violations(SPEC, facts);
        }
    }

    private void plantedGives(java.util.function.Consumer<History> defect, String problem) throws Exception {
        History clean = new History();
        assertFalse(clean.problems().stream().anyMatch(p -> p.startsWith(problem)), "the clean history already has: " + problem);
        History planted = new History();
        defect.accept(planted);
        List<String> found = planted.problems();
        assertTrue(found.stream().anyMatch(p -> p.startsWith(problem)), "no '" + problem + "' in " + found);
    }

    @Test
    void aLineOnStdoutThatIsNoFrameIsAServerDefect() throws Exception {
        plantedGives(h -> h.extraLines.add("< starting up"), "server defect: process server wrote a non-frame line to stdout");
    }

    @Test
    void anotherProtocolVersionIsNamed() throws Exception {
        plantedGives(h -> h.version = "2025-11-25", "protocol versions [2025-11-25]");
    }

    @Test
    void aHistoryWithoutTheGuardedToolIsRefused() throws Exception {
        plantedGives(h -> h.tool = "create_issue", "no create_guarded_issue call");
    }

    @Test
    void tooFewContinuationsAreCounted() throws Exception {
        plantedGives(h -> h.continues = false, "only 0 continuation calls");
    }

    @Test
    void aSecondIssueIsCountedWithItsOperation() throws Exception {
        plantedGives(h -> h.issues = 2, "2 issues and 2 operations, expected 1 of each");
    }

    @Test
    void aRowOfAnotherPrincipalIsNamed() throws Exception {
        plantedGives(h -> h.principal = "bob", "principal is bob, expected " + CaseSpec.PRINCIPAL);
    }

    @Test
    void stepRowsInACaseThatMustLeaveNoneAreNamed() throws Exception {
        plantedGives(h -> h.events = List.of(Map.of("operation_id", "x", "step", "watcher", "outcome", "attempted")),
                "watchers, compensations or events in a case that must leave none");
    }

    @Test
    void anExitStatusOtherThanTheSpecsIsNamed() throws Exception {
        plantedGives(h -> h.exit = 70, "process server exited 70, expected 0");
    }

    @Test
    void anExitThatWasNeverSeenIsNamed() throws Exception {
        plantedGives(h -> h.exit = null, "process server exited null, expected 0");
    }
}
