package lab.continuationreplay.faults;

import lab.continuationreplay.faults.crash.DatabaseKiller;
import lab.continuationreplay.faults.run.FaultExperiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

class FaultsReportTest {
    private static final FaultSession SESSION = new FaultSession(Path.of("/tmp/none"), Path.of("/tmp/none"), true, 7,
            List.of(ServerKind.JAVA, ServerKind.TYPESCRIPT), new PrintStream(PrintStream.nullOutputStream()));

    @Test
    void oneRowPerScopeAndOneForFlatFigures() {
        ObjectNode perSdk = ExactJson.mapper().createObjectNode();
        perSdk.putObject("java").put("duplicates", 0).put("kills", 3);
        perSdk.putObject("typescript").put("duplicates", 0).put("kills", 5);
        ObjectNode flat = ExactJson.mapper().createObjectNode().put("files", 12);
        ObjectNode json = FaultsReport.toJson(SESSION, List.of(
                new ExperimentReport("soak", "kills", true, perSdk, List.of(), 10),
                new ExperimentReport("scan", "secrets", false, flat, List.of("found a key in x.log"), 20)));
        assertEquals("format", json.fieldNames().next(), "the format comes first");
        assertEquals("faults/2", json.path("format").asText());
        assertFalse(json.path("passed").asBoolean());
        assertEquals(7, json.path("seed").asLong());
        String table = FaultsReport.table(json);
        assertEquals(List.of(
                "| experiment | transport | scope | verdict | figures |",
                "|---|---|---|---|---|",
                "| soak | stdio | java | pass | duplicates 0, kills 3 |",
                "| soak | stdio | typescript | pass | duplicates 0, kills 5 |",
                "| scan | stdio | all | FAIL | files 12 |"), table.lines().toList());
        String markdown = FaultsReport.markdown(json);
        assertTrue(markdown.contains("Quick run, seed 7, over stdio. Overall: **FAIL**."), markdown);
        assertTrue(markdown.contains("## scan (stdio): findings\n\n- found a key in x.log\n"), markdown);
    }

    @Test
    void aProblemTheCheckerDerivedFailsItsExperimentAndOnlyThatOne() {
        ObjectNode json = FaultsReport.toJson(SESSION, List.of(
                new ExperimentReport("cut-points", "t", true, ExactJson.mapper().createObjectNode(), List.of(), 1),
                new ExperimentReport("kill-soak", "t", true, ExactJson.mapper().createObjectNode(), List.of(), 1)),
                java.util.Map.of(), java.util.Map.of("cut-points (stdio)", List.of("java store.sqlite3: duplicate: title 't' has 2 issues"),
                        "kill-soak (stdio)", List.of()));
        assertFalse(json.path("passed").asBoolean());
        assertEquals(List.of("format", "quick", "seed", "sdks", "transports", "ledger", "not_applicable", "history", "passed",
                "experiments"), iterable(json.fieldNames()), "passed keeps its place before the experiments");
        JsonNode cuts = json.path("experiments").path(0);
        assertFalse(cuts.path("passed").asBoolean());
        assertEquals("[\"java store.sqlite3: duplicate: title 't' has 2 issues\"]", cuts.path("history_problems").toString());
        assertEquals(cuts.path("history_problems"), cuts.path("findings"));
        assertTrue(json.path("experiments").path(1).path("passed").asBoolean());
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    @Test
    void theLedgerIsNamedAndWhatDoesNotApplyIsListedWithItsReason() {
        ObjectNode json = FaultsReport.toJson(SESSION, List.of(
                new ExperimentReport("storage", "t", true, ExactJson.mapper().createObjectNode(), List.of(), 1)),
                java.util.Map.of("storage", java.util.Map.of("disk_full", "no file of its own")), java.util.Map.of());
        assertEquals("sqlite", json.path("ledger").asText());
        assertEquals("[{\"experiment\":\"storage\",\"part\":\"disk_full\",\"reason\":\"no file of its own\"}]",
                json.path("not_applicable").toString());
        String markdown = FaultsReport.markdown(json);
        assertTrue(markdown.contains("## Not applicable on this ledger\n\n| experiment | part | why |\n|---|---|---|\n"
                + "| storage | disk_full | no file of its own |\n"), markdown);
        assertFalse(markdown.contains("every ledger on PostgreSQL"), markdown);
        json.put("ledger", "postgres");
        assertTrue(FaultsReport.markdown(json).contains("Quick run, seed 7, over stdio, every ledger on PostgreSQL. Overall:"));

        ObjectNode none = FaultsReport.toJson(SESSION, List.of());
        assertEquals(0, none.path("not_applicable").size());
        assertFalse(FaultsReport.markdown(none).contains("Not applicable"), "nothing to list, no section");
    }

    @Test
    void theDatabaseKillsFallOnDistinctOperationsAwayFromTheEdgesAndTooManyAreRefused() {
        java.util.Set<Integer> chosen = DatabaseKiller.choose(new java.util.Random(1), 40, 3);
        assertEquals(3, chosen.size());
        assertTrue(chosen.stream().allMatch(i -> i >= 3 && i < 37), chosen.toString());
        assertEquals(chosen, DatabaseKiller.choose(new java.util.Random(1), 40, 3), "the seed decides");
        assertThrows(IllegalArgumentException.class, () -> DatabaseKiller.choose(new java.util.Random(1), 8, 7));
    }

    @Test
    void allPassingIsAPass() {
        ObjectNode json = FaultsReport.toJson(SESSION, List.of(
                new ExperimentReport("a", "t", true, ExactJson.mapper().createObjectNode(), List.of(), 1)));
        assertTrue(json.path("passed").asBoolean());
        assertEquals("| a | stdio | all | pass |  |", FaultsReport.table(json).lines().toList().get(2));
    }

    @Test
    void selectingExperimentsKeepsTheRunOrderAndRefusesUnknownNames() {
        List<String> all = FaultExperiments.all().stream().map(FaultExperiment::name).toList();
        assertEquals("secrets", all.get(all.size() - 1), "the scan reads what the others wrote, so it runs last");
        assertEquals(List.of("cut-points", "storage"),
                FaultExperiments.select(List.of("storage", "cut-points")).stream().map(FaultExperiment::name).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FaultExperiments.select(List.of("cut-points", "nope")));
        assertTrue(e.getMessage().startsWith("unknown experiment 'nope' (one of cut-points, "), e.getMessage());
    }

    @Test
    void theSeedMakesEveryExperimentsRandomChoicesReproducible() {
        assertEquals(SESSION.random("kill-soak").nextLong(), SESSION.random("kill-soak").nextLong());
        assertFalse(SESSION.random("kill-soak").nextLong() == SESSION.random("wire-fuzz").nextLong());
        assertEquals(3, SESSION.size(3, 300));
    }
}
