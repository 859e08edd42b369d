package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.probe.ProbeInputException;
import lab.continuationreplay.probe.ProbeOptions;
import lab.continuationreplay.probe.ProbeRunner;
import lab.continuationreplay.probe.check.ProbeCheck;
import lab.continuationreplay.probe.report.ProbeReport;
import lab.continuationreplay.vectors.ExactJson;

/**
 * {@code lab probe --servers} and {@code --server-name NAME}: the public MCP servers of {@code probe/servers/servers.json},
 * installed by the project's own locks (npm ci from {@code npm/package-lock.json}; go build in {@code go/} with its
 * {@code go.sum}), each probed with its options and observer, and its verdicts held to the ones recorded beside it
 * with the reason. A verdict other than the recorded one, a failure that now passes included, makes the exit 1.
 */
final class ProbeServers {
    private final Path servers;
    private final Path list;
    private final PrintStream out;

    /** @param list the servers and their recorded verdicts; null: probe/servers/servers.json */
    ProbeServers(Path home, Path list, PrintStream out) {
        this.servers = home.resolve("probe/servers");
        this.list = list != null ? list : servers.resolve("servers.json");
        this.out = out;
    }

    /** Runs every server (or the one named) into {@code folder}; answers the exit status. */
    int run(String only, Path folder) throws IOException, InterruptedException {
        JsonNode list;
        try {
            list = ExactJson.parse(Files.readString(this.list, StandardCharsets.UTF_8));
        } catch (IOException | IllegalArgumentException e) {
            throw new ProbeInputException("--servers-file " + this.list + ": " + e.getMessage());
        }
        if (!list.path("servers").isArray()) {
            throw new ProbeInputException("--servers-file " + this.list + " holds no \"servers\" list");
        }
        List<JsonNode> chosen = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (JsonNode server : list.path("servers")) {
            names.add(server.path("name").asText());
            if (only == null || only.equals(server.path("name").asText())) {
                chosen.add(server);
            }
        }
        if (chosen.isEmpty()) {
            throw new ProbeInputException("--server-name " + only + " is none of " + String.join(", ", names));
        }
        try {
            OutputFolder.requireNewOrEmpty(folder);
        } catch (IllegalArgumentException e) {
            throw new ProbeInputException(e.getMessage());
        }
        install(chosen);
        boolean asRecorded = true;
        for (JsonNode server : chosen) {
            asRecorded &= probe(server, folder);
        }
        out.println("evidence " + folder);
        out.flush();
        return asRecorded ? 0 : 1;
    }

    /** npm ci when node_modules is missing or older than the lock; go build when the binary is missing or older than go.sum. */
    private void install(List<JsonNode> chosen) throws IOException, InterruptedException {
        boolean npm = chosen.stream().anyMatch(s -> s.path("command").asText().contains("{{servers}}/npm/"));
        boolean go = chosen.stream().anyMatch(s -> s.path("command").asText().contains("{{servers}}/go/"));
        Path npmDir = servers.resolve("npm");
        if (npm && older(npmDir.resolve("node_modules/.package-lock.json"), npmDir.resolve("package-lock.json"))) {
            need(Exec.command("npm", "ci", "--no-audit", "--no-fund").withDirectory(npmDir).withStderr(Exec.Io.INTO_STDOUT)
                    .run(Duration.ofMinutes(5)), "npm ci in " + npmDir);
        }
        Path goDir = servers.resolve("go");
        Path binary = goDir.resolve("target/everything-server");
        if (go && older(binary, goDir.resolve("go.sum"))) {
            need(Exec.command("go", "build", "-o", binary.toString(), "github.com/modelcontextprotocol/go-sdk/conformance/everything-server")
                    .withDirectory(goDir).withStderr(Exec.Io.INTO_STDOUT).run(Duration.ofMinutes(5)), "go build in " + goDir);
        }
    }

    private static boolean older(Path built, Path source) throws IOException {
        if (!Files.exists(built)) {
            return true;
        }
        FileTime builtAt = Files.getLastModifiedTime(built);
        return builtAt.compareTo(Files.getLastModifiedTime(source)) < 0;
    }

    private static void need(Exec.Result result, String what) {
        if (!result.succeeded()) {
            throw new IllegalStateException(what + " failed" + (result.timedOut() ? " (timed out)" : " with " + result.exitStatus())
                    + ": " + result.output().strip());
        }
    }

    /** One server: probed into {@code folder/NAME}, judged, and compared with its recorded verdicts. */
    private boolean probe(JsonNode server, Path folder) throws IOException {
        String name = server.path("name").asText();
        Path data = Files.createDirectories(folder.resolve(name + ".data"));
        Path run = folder.resolve(name);
        Map<String, String> places = Map.of("{{servers}}", servers.toAbsolutePath().toString(), "{{data}}", data.toAbsolutePath().toString());
        String command = placed(server.path("command").asText(), places);
        JsonNode arguments = ExactJson.parse(placed(server.path("args").toString(), places));
        ProbeOptions.Observer observer = server.path("effects_cmd").isTextual()
                ? new ProbeOptions.Observer.ShellCount(placed(server.path("effects_cmd").asText(), places))
                : new ProbeOptions.Observer.None();
        ProbeOptions options = new ProbeOptions(new ProbeOptions.Target.Command(command, Map.of()), server.path("tool").asText(),
                arguments, Map.of(), observer, null, run, ProbeOptions.Tuning.defaults(Duration.ofSeconds(10)));
        ProbeRunner.run(options, Map.of());
        ProbeCheck.Judgement judgement = ProbeCheck.deriveAndWrite(run);
        ProbeReport.write(run);
        Map<String, String> got = new LinkedHashMap<>();
        judgement.results().forEach(r -> got.put(r.check(), r.verdict().label() + (r.kind() == null ? "" : " " + r.kind().label())));
        Map<String, String> expected = new LinkedHashMap<>();
        server.path("expected").fields().forEachRemaining(e -> expected.put(e.getKey(), e.getValue().asText()));
        List<String> differences = new ArrayList<>();
        for (String check : got.keySet()) {
            if (!got.get(check).equals(expected.get(check))) {
                differences.add(check + " " + got.get(check) + " (recorded: " + expected.getOrDefault(check, "nothing") + ")");
            }
        }
        expected.keySet().stream().filter(c -> !got.containsKey(c)).forEach(c -> differences.add(c + " not played (recorded: "
                + expected.get(c) + ")"));
        judgement.problems().forEach(p -> differences.add("problem " + p));
        List<String> notable = got.entrySet().stream().filter(e -> !e.getValue().equals("pass")).map(e -> e.getKey() + " " + e.getValue()).toList();
        out.println(name + " protocol " + judgement.protocol() + (differences.isEmpty() ? ", as recorded" : ", NOT as recorded: "
                + String.join("; ", differences)) + (notable.isEmpty() ? ", every check passes" : " (" + String.join(", ", notable) + ")"));
        out.flush();
        return differences.isEmpty();
    }

    private static String placed(String text, Map<String, String> places) {
        String placed = text;
        for (Map.Entry<String, String> place : places.entrySet()) {
            placed = placed.replace(place.getKey(), place.getValue());
        }
        return placed;
    }
}
