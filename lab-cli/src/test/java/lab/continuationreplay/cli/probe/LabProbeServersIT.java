package lab.continuationreplay.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab probe --servers on the public servers of probe/servers/servers.json, installed from their locks as on a machine
 * that never ran them (node_modules, the Go binary and the Python venv removed first): every verdict as recorded beside
 * it, exit 0; lab verify derives a run again; a record that no longer holds (a failure the server does not have) makes
 * exit 1; a setup command that fails is one line naming the server, exit 2.
 */
class LabProbeServersIT {
    @TempDir
    Path dir;

    @Test
    void everyPublicServerGetsItsRecordedVerdicts() throws Exception {
        Path servers = LabProcess.home().resolve("probe/servers");
        List<Path> installs = List.of(servers.resolve("npm/node_modules"), servers.resolve("go/target"), servers.resolve("pypi/.venv"));
        for (Path installed : installs) {
            if (Files.exists(installed)) {
                try (Stream<Path> files = Files.walk(installed)) {
                    for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(file);
                    }
                }
            }
        }
        // npm and go keep their caches under HOME, as for any user (LabProcess starts the lab with PATH alone)
        Map<String, String> user = Map.of("HOME", System.getProperty("user.home"));
        LabProcess.Result run = LabProcess.run(List.of("probe", "--servers", "--out", dir.resolve("all").toString()), user,
                new byte[0], Duration.ofMinutes(6));
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("server-memory protocol 2025-11-25, as recorded (s2 weak different-answer, s4 weak"
                + " different-answer, s6 not-applicable, s6b not-applicable, s7 not-applicable, s8 fail lost-effect, r1 not-applicable)"),
                run.stdout());
        assertTrue(run.stdout().contains("go-everything-server protocol 2026-07-28, as recorded"), run.stdout());
        // the two that write to SQLite: an upsert keyed by the entity's name (npm), a plain INSERT run again (PyPI)
        assertTrue(run.stdout().contains("mcp-memory-libsql protocol 2026-07-28, as recorded (s6 not-applicable"), run.stdout());
        assertTrue(run.stdout().contains("mcp-server-sqlite protocol 2025-11-25, as recorded (s2 fail duplicate, s3 fail duplicate,"
                + " s4 fail duplicate,"), run.stdout());
        assertTrue(Files.isRegularFile(dir.resolve("all/mcp-server-sqlite.data/notes.db")), "the setup made the table's file");
        assertFalse(run.stdout().contains("NOT as recorded"), run.stdout());
        LabProcess.Result verified = LabProcess.run(List.of("verify", dir.resolve("all/server-memory").toString()), Map.of(), "");
        assertEquals(1, verified.exitCode(), "s8 fails on server-memory: " + verified.stdout());
        assertTrue(verified.stdout().contains("\"s8\" : \"fail lost-effect\"") && verified.stdout().contains("\"problems\" : [ ]"),
                verified.stdout());

        // a record that does not hold: write_file recorded as duplicating on a retry
        ObjectNode list = (ObjectNode) ExactJson.parse(Files.readString(servers.resolve("servers.json")));
        list.withArray("servers").forEach(s -> {
            if (s.path("name").asText().equals("server-filesystem-write-file")) {
                ((ObjectNode) s.path("expected")).put("s2", "fail duplicate");
            }
        });
        Path wrong = Files.writeString(dir.resolve("wrong.json"), list.toString());
        LabProcess.Result differs = LabProcess.run(List.of("probe", "--servers-file", wrong.toString(), "--server-name",
                "server-filesystem-write-file", "--out", dir.resolve("wrong").toString()), user, new byte[0], Duration.ofMinutes(3));
        assertEquals(1, differs.exitCode(), differs.stdout() + differs.stderr());
        assertTrue(differs.stdout().contains("NOT as recorded: s2 pass (recorded: fail duplicate)"), differs.stdout());

        // a setup that fails: one line naming the server and what the command printed last
        list.withArray("servers").forEach(s -> {
            if (s.path("name").asText().equals("mcp-server-sqlite")) {
                ((ObjectNode) s).put("setup", "echo no such table >&2; exit 3");
            }
        });
        Path broken = Files.writeString(dir.resolve("broken.json"), list.toString());
        LabProcess.Result noSetup = LabProcess.run(List.of("probe", "--servers-file", broken.toString(), "--server-name",
                "mcp-server-sqlite", "--out", dir.resolve("broken").toString()), user, new byte[0], Duration.ofMinutes(3));
        assertEquals(2, noSetup.exitCode(), noSetup.stdout() + noSetup.stderr());
        assertEquals("lab probe: mcp-server-sqlite: setup 'echo no such table >&2; exit 3' failed with exit status 3: no such table",
                noSetup.stderr().strip(), noSetup.stderr());

        LabProcess.Result unknown = LabProcess.run(List.of("probe", "--server-name", "nonesuch", "--out", dir.resolve("none").toString()),
                Map.of(), "");
        assertEquals(2, unknown.exitCode(), unknown.stderr());
        assertTrue(unknown.stderr().contains("--server-name nonesuch is none of server-memory"), unknown.stderr());
    }
}
