package lab.continuationreplay.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab faults --quick --ledger postgres} as a user runs it, on the PostgreSQL the lab starts for the run (as an
 * unprivileged account when the tests run as root): every stdio experiment whose outcome rests on the ledger (cut points,
 * the kill soak with the database itself killed and restarted, the stdio proxy, the storage faults of a database
 * server, the secrets scan with the ledger's password) on the TypeScript fixture, whose ledger is in its bridge: the
 * ledger's code of the Java server's own (in-process) run, behind one more process boundary. Every invariant is read
 * back from {@code faults.json}; {@code lab faults --quick --ledger postgres} plays the Java server and the others too.
 */
class LabFaultsPostgresIT {
    /**
     * The experiments whose outcome rests on the ledger. The wire fuzzer and the requestState attacks are refused
     * before any ledger is read (one valid control commits); they run against the same server on SQLite in
     * {@link LabFaultsCommandIT}, and {@code lab faults --quick --ledger postgres} still plays them.
     */
    private static final List<String> EXPERIMENTS = List.of("cut-points", "kill-soak", "stdio-proxy", "storage", "secrets");

    @TempDir
    Path dir;

    @Test
    void theQuickFaultLabOnPostgresHoldsEveryInvariantAndKillsTheDatabaseToo() throws Exception {
        Path out = dir.resolve("faults");
        LabProcess.Result result = LabProcess.run(List.of("faults", "--quick", "--ledger", "postgres", "--sdk", "typescript",
                "--only", String.join(",", EXPERIMENTS), "--out", out.toString()), Map.of(), new byte[0], Duration.ofMinutes(8));
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        assertTrue(result.stdout().contains("faults     every invariant holds"), result.stdout());
        assertTrue(result.stderr().contains("ledger: embedded PostgreSQL 14 on 127.0.0.1:"), result.stderr());
        JsonNode json = ExactJson.parse(Files.readString(out.resolve("faults.json")));
        assertEquals("postgres", json.path("ledger").asText());
        List<String> names = new ArrayList<>();
        json.path("experiments").forEach(e -> names.add(e.path("name").asText()));
        assertEquals(EXPERIMENTS, names);
        for (JsonNode experiment : json.path("experiments")) {
            assertTrue(experiment.path("passed").asBoolean(), experiment.toString());
            assertEquals(0, experiment.path("findings").size(), experiment.toString());
        }
        for (String sdk : List.of("typescript")) {
            JsonNode cuts = experiment(json, "cut-points").path("figures").path(sdk);
            assertEquals(4, cuts.path("runs").asInt(), sdk + " " + cuts);

            JsonNode soak = experiment(json, "kill-soak").path("figures").path(sdk);
            assertEquals(soak.path("lost_replies").asInt(), soak.path("reconciled").asInt(), sdk + " " + soak);
            assertEquals(3, soak.path("database_kills").asInt(), "the database itself was killed and restarted: " + soak);
            assertTrue(soak.path("kills").asInt() > 0, sdk + " " + soak);

            JsonNode proxy = experiment(json, "stdio-proxy").path("figures").path(sdk);
            assertTrue(proxy.path("still_serving").asBoolean(), sdk + " " + proxy);

            JsonNode storage = experiment(json, "storage").path("figures").path(sdk);
            assertTrue(storage.path("connection_refused").asText().contains("still serving (port "), sdk + " " + storage);
            assertTrue(storage.path("statement_timeout").asText().contains("; no rows; then created"), sdk + " " + storage);
            assertTrue(storage.path("database_restarted").asText().contains("the same continuation again: replayed"),
                    sdk + " " + storage);
            assertEquals("not applicable on PostgreSQL", storage.path("disk_full").asText(), sdk + " " + storage);
        }
        List<String> notApplicable = new ArrayList<>();
        json.path("not_applicable").forEach(n -> notApplicable.add(n.path("experiment").asText() + "/" + n.path("part").asText()));
        assertEquals(List.of("storage/lock_held", "storage/disk_full", "storage/read_only"), notApplicable);

        JsonNode scan = experiment(json, "secrets").path("figures").path("scan");
        assertEquals(0, scan.path("found").asInt(), scan.toString());
        assertEquals(1, scan.path("ledger_passwords").asInt(), "the ledger's password was looked for: " + scan);
        assertEquals(0, scan.path("matrix_exit").asInt(), scan.toString());

        // every ledger lived on PostgreSQL and left its rows as evidence; no SQLite file anywhere
        try (Stream<Path> files = Files.walk(out)) {
            List<Path> all = files.toList();
            assertEquals(List.of(), all.stream().filter(p -> p.getFileName().toString().contains(".sqlite3")).toList());
            assertTrue(all.contains(out.resolve("cut-points/typescript/exit-after-issue-insert-1/store.rows.json")), all.toString());
            assertTrue(all.contains(out.resolve("kill-soak/typescript/store.rows.json")), all.toString());
        }
        JsonNode dump = ExactJson.parse(Files.readString(out.resolve("kill-soak/typescript/store.rows.json")));
        assertEquals(experiment(json, "kill-soak").path("figures").path("typescript").path("reported_applied").asInt(),
                dump.path("tables").path("issues").path("rows").size(), "the dump holds one issue per operation the soak learnt applied");
        // the checker read the dumps: lab verify derives the same verdicts from them again
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        assertTrue(ExactJson.parse(verified.stdout()).path("experiments").has("storage (stdio)"), verified.stdout());
        assertTrue(Files.readString(out.resolve("FAULTS.md")).contains("every ledger on PostgreSQL. Overall: **pass**"));
    }

    @Test
    void aBadLedgerOrAGivenUrlThatChoosesASchemaIsOneLineAndWritesNothing() throws Exception {
        LabProcess.Result unknown = LabProcess.run(List.of("faults", "--ledger", "mysql", "--out", dir.resolve("x").toString()),
                Map.of(), "");
        assertEquals(1, unknown.exitCode());
        assertEquals("lab faults: --ledger is sqlite or postgres, not mysql", unknown.stderr().strip());
        assertFalse(Files.exists(dir.resolve("x")));

        Path password = Files.writeString(dir.resolve("password"), "p".repeat(40));
        LabProcess.Result schema = LabProcess.run(List.of("faults", "--ledger", "postgres", "--out", dir.resolve("y").toString()),
                Map.of("WIRE_LEDGER_URL", "jdbc:postgresql://127.0.0.1:1/ledgers?currentSchema=mine", "WIRE_LEDGER_USER", "lab",
                        "WIRE_LEDGER_PASSWORD_FILE", password.toString()), "");
        assertEquals(1, schema.exitCode());
        assertEquals("lab faults: WIRE_LEDGER_URL must not choose a schema (currentSchema): the lab makes one per case folder",
                schema.stderr().strip());
        assertFalse(schema.stderr().contains("p".repeat(40)));
        assertFalse(Files.exists(dir.resolve("y")));
    }

    private static JsonNode experiment(JsonNode json, String name) {
        for (JsonNode experiment : json.path("experiments")) {
            if (experiment.path("name").asText().equals(name)) {
                return experiment;
            }
        }
        throw new AssertionError("no experiment " + name + " in " + json);
    }
}
