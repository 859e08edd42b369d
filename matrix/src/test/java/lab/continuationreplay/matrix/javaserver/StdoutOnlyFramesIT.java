package lab.continuationreplay.matrix.javaserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerDefect;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defect of a class-data archive trained on dependency jars that a build copied again: the JVM rejects the archive
 * and, by default, says so on stdout, the MCP wire. Here the archive is made stale exactly that way (trained on a copy
 * of a server's jars, then the copied dependency jars get new modification times), and the servers are started as the
 * lab starts them: they must still write nothing but frames, for the Java server and for the TypeScript fixture's
 * bridge. The control starts the same JVM without the lab's options and sees the wire broken, named by the driver.
 */
class StdoutOnlyFramesIT {
    @TempDir
    static Path jars;

    @TempDir
    Path dir;

    private static Path staleServerArchive;
    private static Path serverJar;
    private static Path staleBridgeArchive;
    private static Path bridgeJar;

    @BeforeAll
    static void staleArchives() throws Exception {
        Path home = LabHome.resolve();
        serverJar = copyWithLib(home.resolve("java-server/target/java-server.jar"), jars.resolve("server"));
        staleServerArchive = train(serverJar, jars.resolve("server.jsa"));
        bridgeJar = copyWithLib(home.resolve("bridge/target/bridge.jar"), jars.resolve("bridge"));
        staleBridgeArchive = train(bridgeJar, jars.resolve("bridge.jsa"));
        // what a second build does: the same dependency jars copied again, with new modification times
        for (Path jar : List.of(serverJar, bridgeJar)) {
            try (var lib = Files.list(jar.resolveSibling("lib"))) {
                for (Path dependency : lib.toList()) {
                    Files.setLastModifiedTime(dependency, FileTime.from(Instant.now().plusSeconds(60)));
                }
            }
        }
    }

    private static Path copyWithLib(Path jar, Path folder) throws Exception {
        Files.createDirectories(folder.resolve("lib"));
        Path copy = Files.copy(jar, folder.resolve(jar.getFileName()));
        try (var lib = Files.list(jar.resolveSibling("lib"))) {
            for (Path dependency : lib.toList()) {
                Files.copy(dependency, folder.resolve("lib").resolve(dependency.getFileName()));
            }
        }
        return copy;
    }

    /** A dynamic archive of whatever the jar loads before it stops for want of configuration. */
    private static Path train(Path jar, Path archive) throws Exception {
        Process training = new ProcessBuilder(JavaCommand.executable(), "-XX:ArchiveClassesAtExit=" + archive, "-jar", jar.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(training.waitFor(60, TimeUnit.SECONDS), "training run finished");
        assertTrue(Files.size(archive) > 0, "the training run wrote an archive");
        return archive;
    }

    private WireSettings alice() {
        return WireSettings.matrix(dir.resolve("store.sqlite3"), "alice");
    }

    private static List<String> withArchive(Path archive, String... rest) {
        List<String> options = new ArrayList<>(ServerKind.SERVER_JVM_OPTIONS);
        options.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
        return JavaCommand.of(options, rest);
    }

    @Test
    void theJavaServerWithAStaleArchiveWritesOnlyFrames() throws Exception {
        commitOnceAndCheckTheWire("java", withArchive(staleServerArchive, "-jar", serverJar.toString()), alice().environment());
    }

    @Test
    void theFixturesBridgeWithAStaleArchiveKeepsItsProtocolClean() throws Exception {
        Map<String, String> environment = new HashMap<>(alice().environment());
        environment.put("LAB_BRIDGE_COMMAND", ExactJson.mapper().writeValueAsString(withArchive(staleBridgeArchive, "-jar", bridgeJar.toString())));
        commitOnceAndCheckTheWire("typescript", ServerKind.TYPESCRIPT.command(LabHome.resolve()), environment);
    }

    /** Both rounds of one guarded call; the JVM rejected its archive (stderr says so) and stdout held frames only. */
    private void commitOnceAndCheckTheWire(String name, List<String> command, Map<String, String> environment) throws Exception {
        ObjectNode call = Servers.arguments("stale-archive-" + name, "stale archive " + name);
        // the fixture's first call waits for the bridge JVM it starts
        try (ServerProcess server = ServerProcess.start(command, environment, dir.resolve(name + ".transcript.log"),
                dir.resolve(name + ".stderr.log"), java.time.Duration.ofSeconds(30))) {
            String state = Servers.firstRound(server, call);
            JsonNode reply = Servers.continuation(server, call, "alpha", state);
            assertEquals("complete", reply.at("/result/resultType").textValue(), reply.toString());
        }
        assertRejectedOnStderrAndOnlyFramesOnStdout(name);
        assertEquals(1, StoreRows.count(alice().database(), "issues"));
    }

    @Test
    void withoutTheOptionsTheJvmBreaksTheWireAndTheDriverSaysWhoAndWhat() throws Exception {
        List<String> bare = new ArrayList<>(List.of(JavaCommand.executable(), "-XX:SharedArchiveFile=" + staleServerArchive,
                "-Xshare:auto", "-jar", serverJar.toString()));
        try (ServerProcess server = ServerProcess.start("java server control", bare, alice().environment(),
                dir.resolve("bare.transcript.log"), dir.resolve("bare.stderr.log"), ServerProcess.READ_TIMEOUT)) {
            ServerDefect defect = assertThrows(ServerDefect.class,
                    () -> Servers.firstRound(server, Servers.arguments("bare", "bare")));
            assertTrue(defect.getMessage().startsWith("java server control wrote a non-frame line to stdout: \"["), defect.getMessage());
            assertTrue(defect.getMessage().contains("shared archive"), defect.getMessage());
        }
        // the server itself noticed it was started without the options, and said so where it belongs
        assertTrue(Files.readString(dir.resolve("bare.stderr.log")).contains("java-server: started without -Xlog:disable"));
    }

    private void assertRejectedOnStderrAndOnlyFramesOnStdout(String name) throws Exception {
        String stderr = Files.readString(dir.resolve(name + ".stderr.log"));
        assertTrue(stderr.contains("Unable to use shared archive"), "the archive really was stale and rejected: " + stderr);
        List<String> received = Files.readAllLines(dir.resolve(name + ".transcript.log")).stream()
                .filter(line -> line.startsWith("<")).toList();
        assertEquals(2, received.size(), received.toString());
        for (String line : received) {
            assertTrue(line.startsWith("< "), "plain text, not bytes: " + line);
            JsonNode frame = ExactJson.parse(line.substring(2));
            assertEquals("2.0", frame.path("jsonrpc").textValue(), line);
        }
    }
}
