package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

class FormatTest {
    @Test
    void everyKindHasItsTag() {
        // results/2: since the checker split, results.jsonl is derived from history.jsonl, which a results/1 run lacks
        // faults/2: since the fault lab writes a history, faults.json carries the verdicts the faults checker derived from it
        assertEquals(List.of("results/2", "history/1", "requested/1", "processes/1", "provenance/1", "comparison/1", "controls/1",
                "client-script/1", "client-record/1", "client-results/2", "clients/1", "bench/1", "faults/2", "fault-event/1", "fault-hashes/1", "runtimes/1",
                "relay/1", "exit/1", "conformance/1", "expected-failures/1", "strict/2", "ledger-rows/1", "network/1", "probe-plan/1",
                "probe-event/1", "probe/1", "proxy-plan/1", "proxy-event/1", "proxy/1"), Arrays.stream(Format.values()).map(Format::tag).toList());
    }

    @Test
    void stampPutsTheTagFirstAndKeepsTheOtherMembersInOrder() throws Exception {
        ObjectNode document = (ObjectNode) ExactJson.parse("{\"b\":1,\"a\":[2]}");
        ObjectNode stamped = Format.RESULTS.stamp(document);
        assertSame(document, stamped, "the writer's own node is stamped");
        assertEquals("{\"format\":\"results/2\",\"b\":1,\"a\":[2]}", ExactJson.mapper().writeValueAsString(stamped));
    }

    @Test
    void stampReplacesAFormatAlreadyThereRatherThanAddingASecond() throws Exception {
        ObjectNode document = (ObjectNode) ExactJson.parse("{\"x\":true,\"format\":\"bench/0\"}");
        assertEquals("{\"format\":\"bench/1\",\"x\":true}", ExactJson.mapper().writeValueAsString(Format.BENCH.stamp(document)));
    }

    @Test
    void aDocumentWithItsOwnTagIsRead() throws Exception {
        ObjectNode read = Format.REQUESTED.read("{\"format\":\"requested/1\",\"cases\":[]}", "java/requested.json");
        assertEquals(0, read.path("cases").size());
        assertSame(read, Format.REQUESTED.check(read, "java/requested.json"));
    }

    @Test
    void aDocumentWithoutAFormatWasWrittenBeforeFormatVersions() {
        FormatException e = assertThrows(FormatException.class,
                () -> Format.RESULTS.read("{\"case_id\":\"01\"}", "java/results.jsonl: record 1"));
        assertEquals("java/results.jsonl: record 1 has no format version: written by a lab before format versions;"
                + " re-run lab matrix", e.getMessage());
    }

    @Test
    void anUnknownTagIsNamedWithTheOneThisLabReads() {
        FormatException e = assertThrows(FormatException.class,
                () -> Format.REQUESTED.read("{\"format\":\"requested/7\",\"cases\":[]}", "java/requested.json"));
        assertEquals("java/requested.json: format \"requested/7\" is not one this checker reads (it reads \"requested/1\")",
                e.getMessage());
    }

    @Test
    void anotherKindsTagOrANonTextTagIsUnknownToo() {
        FormatException other = assertThrows(FormatException.class,
                () -> Format.PROCESSES.read("{\"format\":\"requested/1\"}", "java/case-01/processes.json"));
        assertEquals("java/case-01/processes.json: format \"requested/1\" is not one this checker reads (it reads"
                + " \"processes/1\")", other.getMessage());
        FormatException number = assertThrows(FormatException.class,
                () -> Format.PROVENANCE.read("{\"format\":1}", "java/provenance.json"));
        assertEquals("java/provenance.json: format 1 is not one this checker reads (it reads \"provenance/1\")",
                number.getMessage());
    }

    @Test
    void anArrayIsTheShapeBeforeFormatVersions() {
        // requested.json and processes.json were bare arrays before they carried a format.
        FormatException e = assertThrows(FormatException.class,
                () -> Format.PROCESSES.read("[{\"name\":\"server\",\"exit_status\":0}]", "java/case-01/processes.json"));
        assertEquals("java/case-01/processes.json has no format version (it is a JSON array, not an object): written by a"
                + " lab before format versions; re-run lab matrix", e.getMessage());
    }

    @Test
    void aScalarOrNothingIsNotAnObject() {
        FormatException scalar = assertThrows(FormatException.class, () -> Format.FAULTS.check(ExactJson.parse("\"x\""), "faults.json"));
        assertEquals("faults.json has no format version (it is a JSON string, not an object): written by a lab before"
                + " format versions; re-run lab faults", scalar.getMessage());
        FormatException none = assertThrows(FormatException.class, () -> Format.RUNTIMES.check(null, "runtimes.json"));
        assertEquals("runtimes.json has no format version (it is empty, not an object): written by a lab before format"
                + " versions; re-run lab matrix --in-container", none.getMessage());
    }

    @Test
    void textThatIsNotJsonIsRefusedWithASentence() {
        FormatException e = assertThrows(FormatException.class, () -> Format.RESULTS.read("{\"case_id\":", "java/results.jsonl: record 2"));
        assertEquals(true, e.getMessage().startsWith("java/results.jsonl: record 2 is not JSON (invalid JSON: "), e.getMessage());
        assertEquals(true, e.getMessage().endsWith("); expected a \"results/2\" document"), e.getMessage());
    }

    @Test
    void aNewDocumentHoldsOnlyItsTag() throws Exception {
        assertEquals("{\"format\":\"controls/1\"}", ExactJson.mapper().writeValueAsString(Format.CONTROLS.document()));
    }
}
