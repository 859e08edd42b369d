package lab.continuationreplay.core.servers;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.store.guard.ContinuationState;
import lab.continuationreplay.store.guard.InputResponses;

/**
 * Application class-data sharing (AppCDS) for the JVMs the matrix starts: the Java servers and the TypeScript
 * fixture's bridge. JVM start is the matrix's largest cost (docs/benchmarks.md); a dynamic archive of the classes a
 * server loads cuts it by about a third. JDK 17 has no {@code -XX:+AutoCreateSharedArchive}, so the archive is made
 * by a training run ({@code -XX:ArchiveClassesAtExit}: one continuation and a status on a scratch database) into
 * {@code <home>/target/cds/}. The JVM accepts an archive only for the exact class path it was trained on (each jar's
 * path, size and modification time), so the archive's name carries a digest of exactly that, and of the JDK: a build
 * that copies a dependency jar again gets a new archive, never a rejected one. Only class metadata is archived: no
 * keys, no rows. Any failure means no archive (the JVM starts as before), never a failed run; {@code LAB_CDS=off} turns
 * it off. Were an archive rejected all the same, the JVM says so on stderr ({@link JavaCommand}), never on the wire.
 */
public final class ClassDataArchive {
    private static final Map<String, List<String>> OPTIONS = new ConcurrentHashMap<>();

    private ClassDataArchive() {}

    public static boolean enabled() {
        return !"off".equalsIgnoreCase(System.getenv().getOrDefault("LAB_CDS", ""));
    }

    /**
     * The options that make a JVM running {@code jar} use its archive, or none. Trains the archive on first use, and
     * again whenever the class path changed (a new digest, so a new archive), also in the middle of a long run.
     */
    public static List<String> options(Path home, Path jar, boolean bridge) {
        if (!enabled()) {
            return List.of();
        }
        try {
            Path archive = archiveFor(home, jar);
            return OPTIONS.computeIfAbsent(archive.toString(), key -> {
                try {
                    if (!Files.isRegularFile(archive)) {
                        train(home, jar, archive, bridge);
                        removeStale(archive);
                    }
                    return List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto");
                } catch (Exception | Error e) {
                    return none(jar, e);
                }
            });
        } catch (IOException e) {
            return none(jar, e);
        }
    }

    private static List<String> none(Path jar, Throwable why) {
        System.err.println("lab: no class-data archive for " + jar.getFileName() + " (" + why.getMessage() + "); JVMs start without one");
        return List.of();
    }

    /** {@code <jar name>-jdk<version>-<digest of the JDK and the class path>.jsa}. */
    static Path archiveFor(Path home, Path jar) throws IOException {
        String jdk = System.getProperty("java.vm.version").replaceAll("[^A-Za-z0-9._-]", "_");
        return home.resolve("target").resolve("cds").resolve(prefix(jar) + jdk + "-" + classPathKey(jar) + ".jsa");
    }

    private static String prefix(Path jar) {
        return jar.getFileName().toString().replaceAll("\\.jar$", "") + "-jdk";
    }

    /**
     * A digest of what the JVM checks an archive against: the JDK it runs on, and every jar of the class path (the
     * jar itself and its manifest's {@code Class-Path}) by absolute path, size and modification time.
     */
    static String classPathKey(Path jar) throws IOException {
        StringBuilder key = new StringBuilder(System.getProperty("java.home")).append('\n')
                .append(System.getProperty("java.vm.version")).append('\n');
        for (Path entry : classPath(jar)) {
            Path absolute = entry.toAbsolutePath().normalize();
            key.append(absolute).append(' ').append(Files.size(absolute)).append(' ')
                    .append(Files.getLastModifiedTime(absolute).toMillis()).append('\n');
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest, 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The jar and the entries of its manifest's {@code Class-Path}, resolved against the jar's folder. */
    static List<Path> classPath(Path jar) throws IOException {
        List<Path> entries = new ArrayList<>(List.of(jar));
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
            java.util.jar.Manifest manifest = file.getManifest();
            String classPath = manifest == null ? null : manifest.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            if (classPath != null) {
                for (String entry : classPath.trim().split("\\s+")) {
                    entries.add(jar.toAbsolutePath().getParent().resolve(entry));
                }
            }
        }
        return entries;
    }

    /** Archives of the same jar and JDK trained on another class path: never usable again. */
    private static void removeStale(Path current) {
        String name = current.getFileName().toString();
        String prefix = name.substring(0, name.lastIndexOf('-') + 1);
        try (var files = Files.list(current.getParent())) {
            String unkeyed = prefix.substring(0, prefix.length() - 1) + ".jsa"; // the name before archives were keyed
            files.filter(p -> !p.equals(current) && (p.getFileName().toString().equals(unkeyed)
                    || p.getFileName().toString().startsWith(prefix) && p.getFileName().toString().endsWith(".jsa")))
                    .forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a stale archive only takes space
        }
    }

    private static void train(Path home, Path jar, Path archive, boolean bridge) throws Exception {
        Files.createDirectories(archive.getParent());
        Path scratch = Files.createTempDirectory(archive.getParent(), "training-");
        try {
            Path partial = scratch.resolve("archive.jsa");
            List<String> options = new ArrayList<>(List.of("-XX:ArchiveClassesAtExit=" + partial));
            options.addAll(ServerKind.SERVER_JVM_OPTIONS);
            List<String> command = JavaCommand.of(options, "-jar", jar.toString());
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
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Map<String, String> wire = settings.environment();
        for (String name : List.of("WIRE_SERVER_DB", "WIRE_BACKEND_ID", "WIRE_PRINCIPAL", "WIRE_CLOCK_EPOCH", "WIRE_FINGERPRINT_KEY_HEX")) {
            environment.put(name, wire.get(name));
        }
        Process process = Exec.command(command).onlyEnvironment(environment)
                .withStderr(Exec.Io.file(scratch.resolve("training.stderr.log")))
                .withStdout(Exec.Io.file(scratch.resolve("training.stdout.log"))).start();
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
