package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the built {@code java-client.jar} as a process, the way the lab will, and reads back what it left. */
final class DriverProcess {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final long LIMIT_SECONDS = 120;

    private DriverProcess() {}

    static Path home() {
        String home = System.getProperty("lab.home");
        assertTrue(home != null, "lab.home is set by the pom");
        return Path.of(home).toAbsolutePath().normalize();
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> caseJvmOptions;

    /**
     * The options the lab starts a case's JVMs with, the driver among them (vectors/rules/case-jvm-options.json), read
     * once from the shared table.
     */
    static synchronized List<String> caseJvmOptions() {
        if (caseJvmOptions == null) {
            List<String> options = new ArrayList<>();
            try {
                JSON.readTree(home().resolve("vectors/rules/case-jvm-options.json").toFile()).path("options").forEach(o -> options.add(o.textValue()));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            caseJvmOptions = List.copyOf(options);
        }
        return caseJvmOptions;
    }

    static Run run(Path dir, JsonNode script) throws IOException, InterruptedException {
        return run(dir, script.toString(), Map.of());
    }

    static Run run(Path dir, String script, Map<String, String> extraEnv) throws IOException, InterruptedException {
        Path jar = home().resolve("java-client/target/java-client.jar");
        assertTrue(Files.isRegularFile(jar), "package the clients module first: " + jar);
        Path scriptFile = dir.resolve("script.json");
        Path records = dir.resolve("records.jsonl");
        Path stdout = dir.resolve("driver.stdout");
        Path stderr = dir.resolve("driver.stderr");
        Files.writeString(scriptFile, script, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(caseJvmOptions());
        command.addAll(List.of("-jar", jar.toString(), scriptFile.toString(), records.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        builder.environment().putAll(extraEnv);
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail("the driver did not finish within " + LIMIT_SECONDS + " s; stderr:\n" + Files.readString(stderr));
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        List<JsonNode> lines = new ArrayList<>();
        if (Files.isRegularFile(records)) {
            for (String line : Files.readAllLines(records, StandardCharsets.UTF_8)) {
                lines.add(JSON.readTree(line));
            }
        }
        return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr), Files.isRegularFile(records),
                lines, millis);
    }

    /** What one driver run left: its exit status, its two streams, and the records file if it wrote one. */
    record Run(int exit, String stdout, String stderr, boolean wroteRecords, List<JsonNode> records, long millis) {
        JsonNode step(String step) {
            for (JsonNode record : records) {
                if (record.get("step").asText().equals(step)) {
                    return record;
                }
            }
            throw new AssertionError("no record for step " + step + " in " + records + "\nstderr:\n" + stderr);
        }

        String describe() {
            StringBuilder text = new StringBuilder("exit " + exit + "\n");
            records.forEach(r -> text.append(r).append('\n'));
            return text.append("stderr:\n").append(stderr).toString();
        }
    }
}
