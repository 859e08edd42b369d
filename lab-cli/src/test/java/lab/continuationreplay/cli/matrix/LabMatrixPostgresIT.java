package lab.continuationreplay.cli.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job on a PostgreSQL ledger. Two columns (Java in-process, Go through the bridge) play all twelve cases on
 * a database the lab is given ({@code WIRE_LEDGER_URL}, so the test knows the password and can look for it in
 * everything the run left); the embedded path, where the lab starts PostgreSQL itself (as an unprivileged account
 * when the tests run as root), plays two cases. The checker judges from the rows' dumps alone.
 */
class LabMatrixPostgresIT {
    @TempDir
    static Path dir;
    static EmbeddedPostgres given;
    static String password;
    static Path out;
    static LabProcess.Result run;

    @BeforeAll
    static void runTheMatrixOnAGivenDatabase() throws Exception {
        given = EmbeddedPostgres.start(PostgresRunLedger.EXEC);
        password = Files.readString(given.passwordFile());
        out = dir.resolve("matrix");
        run = LabProcess.run(List.of("matrix", "--ledger", "postgres", "--sdk", "java,go", "--out", out.toString()),
                Map.of("WIRE_LEDGER_URL", given.database().url(), "WIRE_LEDGER_USER", EmbeddedPostgres.ROLE,
                        "WIRE_LEDGER_PASSWORD_FILE", given.passwordFile().toString()),
                new byte[0], java.time.Duration.ofMinutes(10));
    }

    @AfterAll
    static void stopTheGivenDatabase() {
        if (given != null) {
            given.close();
        }
    }

    @Test
    void everyCasePassesOnBothColumnsWithTheOutcomesOfSqlite() throws Exception {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("java       requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("go         requested 12, executed 12, passed 12; checker (history only): no problem"), run.stdout());
        assertTrue(run.stdout().contains("java-to-go recovery across SDKs: applied, stored result, no redispatch; checker: no problem"), run.stdout());
        assertTrue(run.stdout().contains("go-to-java recovery across SDKs: applied, stored result, no redispatch; checker: no problem"), run.stdout());
        assertTrue(run.stdout().contains("outcomes   agree on every case"), run.stdout());
        assertTrue(run.stderr().contains("ledger: PostgreSQL at " + given.database().url() + " as lab"), run.stderr());
        assertEquals("postgres", ExactJson.parse(Files.readString(out.resolve("go/provenance.json"))).path("ledger").asText());
    }

    @Test
    void everyCaseLeftItsRowsAsADumpAndNoDatabaseFileAndTheSchemasAreGone() throws Exception {
        for (String attempt : List.of("java", "go", "cross-java-to-go", "controls/unguarded-identical-continuation")) {
            Path folder = attempt.startsWith("controls") ? out.resolve(attempt) : out.resolve(attempt).resolve("case-09");
            assertFalse(Files.exists(folder.resolve("store.sqlite3")), folder.toString());
            JsonNode dump = ExactJson.parse(Files.readString(folder.resolve("store.rows.json")));
            assertEquals("ledger-rows/1", dump.path("format").asText());
            assertEquals(List.of("store_metadata", "issues", "operations", "operation_events", "watchers", "compensations"),
                    iterate(dump.path("tables").fieldNames()), folder.toString());
        }
        try (Connection connection = given.connect(EmbeddedPostgres.DATABASE); Statement statement = connection.createStatement();
                ResultSet left = statement.executeQuery("SELECT COUNT(*) FROM pg_namespace WHERE nspname LIKE 'ledger_%'")) {
            left.next();
            assertEquals(0, left.getLong(1), "the run dropped every schema it made");
        }
    }

    @Test
    void thePasswordIsNowhereInTheEvidenceNorInWhatTheLabPrinted() throws Exception {
        assertTrue(password.length() >= 32);
        assertFalse(run.stdout().contains(password));
        assertFalse(run.stderr().contains(password));
        try (var files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertFalse(new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).contains(password),
                        file.toString());
            }
        }
    }

    /** A dump with a duplicate effect, made self-consistent (hashes, records, summary): refused by the predicate. */
    @Test
    void aForgedDumpIsRefusedByTheCheckersJudgement() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout());

        Path copy = dir.resolve("forged-dump");
        EvidenceCopies.copyTree(out, copy);
        Path dumpFile = copy.resolve("go/case-01/store.rows.json");
        ObjectNode dump = (ObjectNode) ExactJson.parse(Files.readString(dumpFile));
        ArrayNode issues = (ArrayNode) dump.path("tables").path("issues").path("rows");
        assertEquals(1, issues.size(), dump.toString());
        issues.addArray().add(2).add(issues.get(0).get(1).textValue()).add(issues.get(0).get(2).textValue());
        Files.writeString(dumpFile, ExactJson.mapper().writeValueAsString(dump));
        Forger.reseal(copy.resolve("go"), "01");
        LabProcess.Result verdict = LabProcess.run(List.of("verify", copy.toString()), Map.of(), "");
        assertEquals(1, verdict.exitCode(), verdict.stdout());
        assertTrue(verdict.stdout().contains("case 01: fail"), verdict.stdout());
        assertTrue(verdict.stdout().contains("2 issues and 1 operations, expected 1 of each"), verdict.stdout());
        assertFalse(verdict.stdout().contains("artifacts differ from the hashes"), verdict.stdout());

        Path broken = dir.resolve("broken-dump");
        EvidenceCopies.copyTree(out, broken);
        Files.writeString(broken.resolve("java/case-03/store.rows.json"), "{\"format\":\"ledger-rows/1\",\"tables\":{\"issues\":"
                + "{\"columns\":[[\"id\",\"integer\"]],\"rows\":[[\"one\"]]}}}");
        Forger.reseal(broken.resolve("java"), "03");
        LabProcess.Result refused = LabProcess.run(List.of("verify", broken.toString()), Map.of(), "");
        assertEquals(1, refused.exitCode(), refused.stdout());
        assertTrue(refused.stdout().contains("row 1, id is not integer"), refused.stdout());
    }

    /** With no URL the lab starts PostgreSQL itself; as root, as the unprivileged account. */
    @Test
    void withoutAUrlTheLabStartsItsOwnPostgres() throws Exception {
        Path embedded = dir.resolve("embedded");
        LabProcess.Result own = LabProcess.run(List.of("matrix", "--ledger", "postgres", "--sdk", "typescript",
                "--cases", "01,09", "--timings", "--out", embedded.toString()), Map.of(), new byte[0], java.time.Duration.ofMinutes(5));
        assertEquals(0, own.exitCode(), own.stdout() + own.stderr());
        // --timings: the wall time, then where it went, after the evidence line
        assertTrue(own.stdout().contains("\ntimings    wall "), own.stdout());
        assertTrue(own.stdout().contains("  process_starts "), own.stdout());
        assertTrue(own.stdout().contains("typescript requested 2, executed 2, passed 2; checker (history only): no problem"),
                own.stdout());
        boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        assertTrue(own.stderr().contains("ledger: embedded PostgreSQL 14 on 127.0.0.1:"), own.stderr());
        assertTrue(own.stderr().contains("(running as " + (root ? EmbeddedPostgres.ACCOUNT : System.getProperty("user.name")) + ")"),
                own.stderr());
        assertTrue(Files.exists(embedded.resolve("typescript/case-09/store.rows.json")));
    }

    @Test
    void aLedgerOtherThanSqliteOrPostgresIsRefusedByName() throws Exception {
        Path folder = dir.resolve("refused");
        LabProcess.Result refused = LabProcess.run(List.of("matrix", "--ledger", "mysql", "--out", folder.toString()),
                Map.of(), new byte[0]);
        assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
        assertTrue(refused.stderr().contains("--ledger is sqlite or postgres, not mysql"), refused.stderr());
        assertFalse(Files.exists(folder));
    }

    private static List<String> iterate(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
