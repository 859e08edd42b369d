package lab.continuationreplay.matrix.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.relay.RecordingRelay;
import lab.continuationreplay.core.relay.RelayOptions;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.matrix.run.CaseContext;
import lab.continuationreplay.matrix.run.CaseRun;
import lab.continuationreplay.matrix.run.Provenance;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Plays client cases in one client x server cell into {@code out/client-<client>-server-<server>/}, and writes history
 * only: per case the step script, the driver's client records, a byte-exact transcript per server process (through
 * the recording relay the client starts as its server), each process's exit, the sealed database, and a
 * {@code history.jsonl} line with the hashes. The checker judges it.
 */
public final class ClientsRunner {
    /** How long one case's driver may run before it is killed (and the case recorded as a machinery error). */
    static final Duration CASE_LIMIT = Duration.ofSeconds(180);

    private ClientsRunner() {}

    /**
     * @param requestTimeout the clients' request timeout, set on every request; null leaves each SDK's default (how
     *                       the defaults are measured: a dropped reply then waits that long)
     */
    public static void run(List<ClientCase> cases, ClientKind client, ServerKind server, Path out, Path home,
            Duration requestTimeout, PrintStream progress) throws Exception {
        String cell = Layout.clientCell(client.label(), server.label());
        Path attempt = out.resolve(cell);
        if (Files.exists(attempt)) {
            throw new IllegalArgumentException(attempt + " already exists; an attempt folder is never overwritten");
        }
        Files.createDirectories(attempt);
        ObjectNode provenance = Provenance.of(server, home);
        provenance.put("client", client.label());
        provenance.put("request_timeout_ms", requestTimeout == null ? null : requestTimeout.toMillis());
        write(attempt.resolve(Layout.PROVENANCE), provenance);
        ObjectNode requested = Format.REQUESTED.document();
        ArrayNode list = requested.putArray("cases");
        cases.forEach(c -> list.addObject().put("id", c.id().label()).put("name", c.id().name().toLowerCase(java.util.Locale.ROOT)));
        write(attempt.resolve(Layout.REQUESTED), requested);
        for (ClientCase clientCase : cases) {
            long started = System.nanoTime();
            Path folder = Files.createDirectories(attempt.resolve(Layout.caseFolder(clientCase.id().label())));
            String machineryError = play(clientCase, client, server, folder, home, requestTimeout);
            RunLog.append(attempt.resolve(Layout.HISTORY), folder, machineryError);
            progress.printf("%-32s case %-14s %-7s %6d ms%n", cell, clientCase.id().label(),
                    machineryError == null ? "played" : "STOPPED", (System.nanoTime() - started) / 1_000_000);
            if (machineryError != null) {
                progress.println("           machinery error: " + machineryError);
            }
        }
    }

    /** Runs the case's driver to its end; null when it ran every step, else what stopped it. */
    static String play(ClientCase clientCase, ClientKind client, ServerKind server, Path folder, Path home, Duration requestTimeout)
            throws Exception {
        Path database = folder.resolve(Layout.DATABASE);
        ObjectNode script = Format.CLIENT_SCRIPT.document();
        ObjectNode servers = script.putObject("servers");
        Map<String, String> secrets = new LinkedHashMap<>();
        List<String> serverOrder = new ArrayList<>();
        for (Map.Entry<String, ClientCase.Server> entry : new java.util.TreeMap<>(clientCase.servers()).entrySet()) {
            WireSettings settings = CaseContext.settings(database, entry.getValue().setup());
            ObjectNode spec = servers.putObject(entry.getKey());
            ArrayNode command = spec.putArray("command");
            RelayOptions relay = RelayOptions.recording(folder, entry.getKey());
            if (entry.getValue().dropReplyToContinuation() > 0) {
                relay = relay.droppingReplyToContinuation(entry.getValue().dropReplyToContinuation());
            }
            RecordingRelay.command(home, relay, server.command(home)).forEach(command::add);
            ObjectNode env = spec.putObject("env");
            Map<String, String> environment = new LinkedHashMap<>(settings.environment());
            environment.putAll(server.environment(home));
            // Keys never go into evidence: the driver gets them in its own environment, and each server inherits it.
            for (Map.Entry<String, String> variable : environment.entrySet()) {
                if (WireSettings.SECRET_VARIABLES.contains(variable.getKey())) {
                    secrets.put(variable.getKey(), variable.getValue());
                } else {
                    env.put(variable.getKey(), variable.getValue());
                }
            }
            serverOrder.add(entry.getKey());
        }
        if (requestTimeout == null) {
            script.putNull("request_timeout_ms");
        } else {
            script.put("request_timeout_ms", requestTimeout.toMillis());
        }
        script.put("version_mode", clientCase.versionMode());
        script.set("steps", clientCase.steps());
        Path scriptFile = folder.resolve(Layout.SCRIPT);
        write(scriptFile, script);
        Exec.Result result = Exec.command(client.command(home, scriptFile, folder.resolve(Layout.CLIENT_RECORDS)))
                .addingEnvironment(secrets).withStderr(Exec.Io.file(folder.resolve(Layout.DRIVER_STDERR)))
                .run(CASE_LIMIT);
        String lingering = awaitRelays(folder);
        writeProcesses(folder, result, serverOrder);
        try {
            CaseRun.seal(database);
        } catch (java.sql.SQLException locked) {
            return "the database could not be sealed (" + locked.getMessage() + ")" + (lingering == null ? "" : "; " + lingering);
        }
        if (result.timedOut()) {
            return "the " + client.label() + " client driver did not finish within " + CASE_LIMIT.toSeconds() + " s";
        }
        return result.exitStatus() == 0 ? null : "the " + client.label() + " client driver exited " + result.exitStatus()
                + " (see " + Layout.DRIVER_STDERR + ")";
    }

    /** How long relayed servers may take to end after their driver did: the relay's own grace is 10 s. */
    static final Duration RELAY_END = Duration.ofSeconds(15);

    /**
     * Waits until every relay of this case has ended: a client may leave its server running after its driver ends, and
     * the relay then ends it at end of input. Relays are the driver's children, not the lab's, so they are found by
     * their command line, which names this case's folder. Null when all ended, else a sentence naming those still
     * running.
     */
    private static String awaitRelays(Path folder) throws InterruptedException {
        long deadline = System.nanoTime() + RELAY_END.toNanos();
        String marker = RecordingRelay.class.getName();
        String dir = folder.toString();
        while (true) {
            List<ProcessHandle> running = ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().commandLine().map(c -> c.contains(marker) && c.contains(dir)).orElse(false)).toList();
            if (running.isEmpty()) {
                return null;
            }
            if (System.nanoTime() > deadline) {
                return running.size() + " relayed server processes still ran " + RELAY_END.toSeconds() + " s after the driver ended";
            }
            // Polling: there is no handle to wait on for another process's children.
            Thread.sleep(50);
        }
    }

    /**
     * processes.json: the driver, then each relayed server process (one per transcript) in the script's server order,
     * then by start. A relay killed before it could write its exit file (the TypeScript client kills its discover
     * probe's process 1 s after SIGTERM) is listed with no exit status, ended by {@code relay_killed}.
     */
    private static void writeProcesses(Path folder, Exec.Result driver, List<String> serverOrder) throws IOException {
        ObjectNode record = Format.PROCESSES.document();
        ArrayNode processes = record.putArray("processes");
        processes.addObject().put("name", "driver").put("exit_status", driver.timedOut() ? null : driver.exitStatus());
        List<JsonNode> exits = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(Layout.TRANSCRIPT_SUFFIX)).toList()) {
                String name = file.getFileName().toString().replace(Layout.TRANSCRIPT_SUFFIX, "");
                Path exit = folder.resolve(name + Layout.EXIT_SUFFIX);
                exits.add(Files.exists(exit) ? ExactJson.parse(Files.readString(exit))
                        : ExactJson.mapper().createObjectNode().put("name", name).put("ended_by", "relay_killed").putNull("exit_status"));
            }
        }
        exits.sort(Comparator.comparingInt((JsonNode e) -> serverOrder.indexOf(e.path("name").asText().split("~")[0]))
                .thenComparing(e -> e.path("name").asText()));
        for (JsonNode exit : exits) {
            processes.addObject().put("name", exit.path("name").asText()).put("ended_by", exit.path("ended_by").asText())
                    .set("exit_status", exit.path("exit_status"));
        }
        write(folder.resolve(Layout.PROCESSES), record);
    }

    private static void write(Path file, JsonNode document) throws IOException {
        Files.writeString(file, ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(document) + "\n");
    }
}
