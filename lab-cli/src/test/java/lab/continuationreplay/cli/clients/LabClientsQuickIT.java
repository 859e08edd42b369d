package lab.continuationreplay.cli.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab clients} with the Python, Go and Rust SDK clients in quick form: each against every guarded server over
 * stdio, in the one case that plays a manual round, a lost commit, a restart, the status and the exact replay
 * ({@code 03}); {@code lab clients --client python,go,rust} plays all fourteen. The request timeout is raised because the first request
 * of a cell against the Python fixture includes that server's cold start
 * (docs/findings/python-fixture-cold-start-and-the-request-timeout.md); case 03 never waits for a timeout.
 */
class LabClientsQuickIT {
    private static final List<String> CLIENTS = List.of("python", "go", "rust");
    private static final List<String> SERVERS = lab.continuationreplay.history.Layout.SDK_COLUMNS;

    @TempDir
    static Path dir;
    static Path out;
    static LabProcess.Result run;

    @BeforeAll
    static void runTheNewClients() throws Exception {
        out = dir.resolve("clients");
        run = LabProcess.run(ClientsTestPlan.STDIO_OTHER_CLIENTS_QUICK.arguments(out, 15000), Map.of(), new byte[0],
                Duration.ofMinutes(5));
    }

    @Test
    void eachNewClientHoldsAgainstEachServer() {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        for (String client : CLIENTS) {
            for (String server : SERVERS) {
                String cell = Layout.clientCell(client, server);
                assertTrue(run.stdout().contains(String.format("%-32s requested 1, executed 1, passed 1; checker (history only): no problem",
                        cell)), run.stdout());
            }
        }
    }

    /** The manual round survives the lost reply in every cell: the kept state's exact replay gives the stored result. */
    @Test
    void theKeptStateRecoversTheLostCommitInEveryCell() throws Exception {
        for (String client : CLIENTS) {
            for (String server : SERVERS) {
                String cell = Layout.clientCell(client, server);
                JsonNode record = record(cell);
                List<String> seen = new ArrayList<>();
                // the calls only: a connect or close that threw is listed too (the Go client's close of the crashed server)
                record.path("steps").forEach(s -> {
                    if (List.of("call", "call_once", "status").contains(s.path("op").asText())) {
                        seen.add(s.path("seen").asText());
                    }
                });
                assertEquals(List.of("input_required", "lost", "status applied", "replayed applied"), seen, cell);
                assertTrue(record.path("recovered").asBoolean(), cell);
                assertEquals(1, record.path("effects").asInt(), cell);
            }
        }
    }

    /** Each record names the client and the SDK version that really ran, read from the installed package or binary. */
    @Test
    void theRecordsNameTheSdkThatRan() throws Exception {
        for (String[] expected : new String[][] {{"python", "2.3.0"}, {"go", "v1.8.0"}, {"rust", "3.11.0"}}) {
            Path records = out.resolve(Layout.clientCell(expected[0], "java")).resolve(Layout.caseFolder("03")).resolve(Layout.CLIENT_RECORDS);
            for (String line : Files.readAllLines(records)) {
                JsonNode record = ExactJson.parse(line);
                assertEquals(expected[0], record.path("client").asText(), line);
                assertEquals(expected[1], record.path("sdk_version").asText(), line);
            }
        }
    }

    @Test
    void verifyAgreesOnTheFolder() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), "");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
    }


    private static JsonNode record(String cell) throws Exception {
        for (String line : Files.readAllLines(out.resolve(cell).resolve(Layout.RESULTS))) {
            JsonNode record = ExactJson.parse(line);
            if (record.path("case_id").asText().equals("03")) {
                return record;
            }
        }
        throw new AssertionError(cell + " has no record of case 03");
    }
}
