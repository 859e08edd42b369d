package lab.continuationreplay.matrix.servers;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.matrix.wire.ServerProcess;
import lab.continuationreplay.store.guard.ContinuationState;
import lab.continuationreplay.store.guard.InputResponses;

/**
 * Application class-data sharing (AppCDS) for the JVMs the matrix starts: the Java servers and the TypeScript
 * fixture's bridge. JVM start is the matrix's largest cost (docs/benchmarks.md); a dynamic archive of the classes a
 * server loads cuts it by about a third. JDK 17 has no {@code -XX:+AutoCreateSharedArchive}, so the archive is made
 * once per jar and JDK by a training run ({@code -XX:ArchiveClassesAtExit}: one continuation and a status on a
 * scratch database) into {@code <home>/target/cds/}, and remade when the jar is newer. Only class metadata is
 * archived: no keys, no rows. Any failure means no archive (the JVM starts as before), never a failed run;
 * {@code LAB_CDS=off} turns it off. The archive is advisory: {@code -Xshare:auto} ignores one that does not match.
 */
public final class ClassDataArchive {
    private static final Map<String, List<String>> OPTIONS = new ConcurrentHashMap<>();

    private ClassDataArchive() {}

    public static boolean enabled() {
        return !"off".equalsIgnoreCase(System.getenv().getOrDefault("LAB_CDS", ""));
    }

    /** The options that make a JVM running {@code jar} use its archive, or none. Trains the archive on first use. */
    public static List<String> options(Path home, Path jar, boolean bridge) {
        if (!enabled()) {
            return List.of();
        }
        return OPTIONS.computeIfAbsent(jar.toString(), key -> {
            try {
                Path archive = archiveFor(home, jar);
                if (!Files.isRegularFile(archive) || Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) < 0) {
                    train(home, jar, archive, bridge);
                }
                return List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto");
            } catch (Exception | Error e) {
                System.err.println("lab: no class-data archive for " + jar.getFileName() + " (" + e.getMessage() + "); JVMs start without one");
                return List.of();
            }
        });
    }

    static Path archiveFor(Path home, Path jar) {
        String jdk = System.getProperty("java.vm.version").replaceAll("[^A-Za-z0-9._-]", "_");
        String name = jar.getFileName().toString().replaceAll("\\.jar$", "");
        return home.resolve("target").resolve("cds").resolve(name + "-jdk" + jdk + ".jsa");
    }

    private static void train(Path home, Path jar, Path archive, boolean bridge) throws Exception {
        Files.createDirectories(archive.getParent());
        Path scratch = Files.createTempDirectory(archive.getParent(), "training-");
        try {
            Path partial = scratch.resolve("archive.jsa");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-XX:ArchiveClassesAtExit=" + partial));
            if (!bridge) {
                command.addAll(ServerKind.SERVER_JVM_OPTIONS.subList(0, 3));
            }
            command.addAll(List.of("-jar", jar.toString()));
            WireSettings settings = WireSettings.matrix(scratch.resolve("store.sqlite3"), "alice");
            if (bridge) {
                trainBridge(command, settings, scratch);
            } else {
                trainServer(command, settings, scratch);
            }
            if (!Files.isRegularFile(partial) || Files.size(partial) == 0) {
                throw new IOException("the training run wrote no archive");
            }
            Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            try (var files = Files.walk(scratch)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One guarded continuation and a status through the Java server, then end of input. */
    private static void trainServer(List<String> command, WireSettings settings, Path scratch) throws Exception {
        try (ServerProcess server = ServerProcess.start(command, settings.environment(), scratch.resolve("training.transcript.log"),
                scratch.resolve("training.stderr.log"), Duration.ofSeconds(30))) {
            server.request("tools/list", JsonNodeFactory.instance.objectNode());
            ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("operation_id", "training").put("title", "training")
                    .put("mode", "atomic");
            String state = server.callTool("create_guarded_issue", arguments, null, null).path("result").path("requestState").textValue();
            ObjectNode accepted = JsonNodeFactory.instance.objectNode();
            accepted.putObject("body").put("action", "accept").putObject("content").put("body", "alpha");
            server.callTool("create_guarded_issue", arguments, accepted, state);
            server.callTool("get_operation_status", JsonNodeFactory.instance.objectNode().put("operation_id", "training"), null, null);
            server.closeInput();
            if (server.awaitExit(Duration.ofSeconds(30)) != 0) {
                throw new IOException("the training server exited " + server.exitStatus());
            }
        }
    }

    /** One {@code apply} and a {@code status} line through the bridge, then end of input. */
    private static void trainBridge(List<String> command, WireSettings settings, Path scratch) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Map<String, String> wire = settings.environment();
        for (String name : List.of("WIRE_SERVER_DB", "WIRE_BACKEND_ID", "WIRE_PRINCIPAL", "WIRE_CLOCK_EPOCH", "WIRE_FINGERPRINT_KEY_HEX")) {
            builder.environment().put(name, wire.get(name));
        }
        builder.redirectError(scratch.resolve("training.stderr.log").toFile());
        builder.redirectOutput(scratch.resolve("training.stdout.log").toFile());
        Process process = builder.start();
        ObjectNode apply = JsonNodeFactory.instance.objectNode().put("op", "apply").put("operation_id", "training")
                .put("title", "training").put("mode", "atomic").put("body", "alpha");
        apply.set("state", ContinuationState.mint("training", settings.clockEpoch(), 300, 360, new SecureRandom()).toJson());
        apply.set("responses", InputResponses.normalised("alpha"));
        try (var in = process.getOutputStream()) {
            in.write((apply + "\n{\"op\":\"status\",\"operation_id\":\"training\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("the training bridge did not exit");
        }
        if (process.exitValue() != 0) {
            throw new IOException("the training bridge exited " + process.exitValue());
        }
    }
}
