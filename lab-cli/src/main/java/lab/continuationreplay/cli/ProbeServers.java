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
import java.util.Locale;
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
 * {@code go.sum}; a venv in {@code pypi/.venv} from the hashed {@code pypi/requirements.lock}), each probed with its
 * options and observer, and its verdicts held to the ones recorded beside it with the reason. A verdict other than the
 * recorded one, a failure that now passes included, makes the exit 1. An entry may name a {@code setup} command, run
 * with {@code sh -c} in its empty data folder before the probe (a table the server does not create itself).
 */
final class ProbeServers {
    /** The Go programs of {@code go/go.mod}: the binary under {@code go/target/} and the package it is built from. */
    private static final Map<String, String> GO_PROGRAMS = Map.of(
            "everything-server", "github.com/modelcontextprotocol/go-sdk/conformance/everything-server");

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

    /**
     * npm ci when node_modules is missing or older than the lock; go build when a binary is missing or older than go.sum;
     * a new venv with pip install --require-hashes when the venv's stamp is missing or older than requirements.lock.
     */
    private void install(List<JsonNode> chosen) throws IOException, InterruptedException {
        Path npmDir = servers.resolve("npm");
        if (uses(chosen, "npm") && older(npmDir.resolve("node_modules/.package-lock.json"), npmDir.resolve("package-lock.json"))) {
            need(Exec.command("npm", "ci", "--no-audit", "--no-fund"), npmDir, "npm ci");
        }
        Path goDir = servers.resolve("go");
        for (Map.Entry<String, String> program : GO_PROGRAMS.entrySet()) {
            Path binary = goDir.resolve("target").resolve(program.getKey());
            if (uses(chosen, "go/target/" + program.getKey()) && older(binary, goDir.resolve("go.sum"))) {
                need(Exec.command("go", "build", "-o", binary.toAbsolutePath().toString(), program.getValue()), goDir,
                        "go build " + program.getValue());
            }
        }
        Path pypiDir = servers.resolve("pypi");
        Path venv = pypiDir.resolve(".venv");
        Path stamp = venv.resolve("lab-installed-from-lock");
        if (uses(chosen, "pypi") && older(stamp, pypiDir.resolve("requirements.lock"))) {
            // the stamp is written last, so an interrupted install is done again
            need(Exec.command("python3", "-m", "venv", "--clear", venv.toAbsolutePath().toString()), pypiDir, "python3 -m venv");
            String python = venv.resolve("bin/python").toAbsolutePath().toString();
            need(Exec.command(python, "-m", "pip", "install", "--require-hashes", "--no-deps", "--disable-pip-version-check",
                    "--no-input", "--quiet", "-r", "requirements.lock"), pypiDir, "pip install --require-hashes -r requirements.lock");
            need(Exec.command(python, "-m", "pip", "check", "--disable-pip-version-check"), pypiDir, "pip check");
            Files.writeString(stamp, "installed from requirements.lock\n", StandardCharsets.UTF_8);
        }
    }

    private static boolean uses(List<JsonNode> chosen, String place) {
        return chosen.stream().anyMatch(s -> s.path("command").asText().contains("{{servers}}/" + place));
    }

    private static boolean older(Path built, Path source) throws IOException {
        if (!Files.exists(built)) {
            return true;
        }
        FileTime builtAt = Files.getLastModifiedTime(built);
        return builtAt.compareTo(Files.getLastModifiedTime(source)) < 0;
    }

    /** Runs an install step in {@code folder}; a failure is one line naming the step and the line of its output that says why. */
    private static void need(Exec.Spec step, Path folder, String what) throws IOException, InterruptedException {
        Exec.Result result;
        try {
            result = step.withDirectory(folder).withStderr(Exec.Io.INTO_STDOUT).run(Duration.ofMinutes(5));
        } catch (IOException e) {
            throw new ProbeInputException(what + " in " + folder + " could not start: " + e.getMessage());
        }
        if (!result.succeeded()) {
            throw new ProbeInputException(what + " in " + folder + " failed" + (result.timedOut() ? " (timed out after 5 minutes)"
                    : " with exit status " + result.exitStatus()) + ": " + failureLine(result.output()));
        }
    }

    /** An entry's setup command, run with sh -c in its data folder; a failure is one line naming the server. */
    private static void setup(String name, String command, Path data) throws IOException, InterruptedException {
        Exec.Result result;
        try {
            result = Exec.command("sh", "-c", command).withDirectory(data).withStderr(Exec.Io.INTO_STDOUT).run(Duration.ofMinutes(1));
        } catch (IOException e) {
            throw new ProbeInputException(name + ": setup could not start: " + e.getMessage());
        }
        if (!result.succeeded()) {
            throw new ProbeInputException(name + ": setup '" + command + "' failed" + (result.timedOut() ? " (timed out after 1 minute)"
                    : " with exit status " + result.exitStatus()) + ": " + failureLine(result.output()));
        }
    }

    /** The line of a step's output that names its failure: the first that says "error" (pip, npm, go), else the last. */
    private static String failureLine(String output) {
        List<String> lines = output.strip().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return lines.stream().filter(l -> l.toLowerCase(Locale.ROOT).contains("error")).findFirst()
                .orElse(lines.isEmpty() ? "(it printed nothing)" : lines.get(lines.size() - 1));
    }

    /** One server: probed into {@code folder/NAME}, judged, and compared with its recorded verdicts. */
    private boolean probe(JsonNode server, Path folder) throws IOException, InterruptedException {
        String name = server.path("name").asText();
        Path data = Files.createDirectories(folder.resolve(name + ".data"));
        Path run = folder.resolve(name);
        Map<String, String> places = Map.of("{{servers}}", servers.toAbsolutePath().toString(), "{{data}}", data.toAbsolutePath().toString());
        if (server.path("setup").isTextual()) {
            setup(name, placed(server.path("setup").asText(), places), data);
        }
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
