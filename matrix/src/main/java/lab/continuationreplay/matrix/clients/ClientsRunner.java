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
import java.util.Optional;
import java.util.stream.Stream;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.relay.ContinuationReplyDrop;
import lab.continuationreplay.core.wire.ExchangePlan;
import lab.continuationreplay.core.wire.HttpRelay;
import lab.continuationreplay.core.relay.RecordingRelay;
import lab.continuationreplay.core.relay.RelayOptions;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
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
 * Plays client cases in one client x server cell into {@code out/client-<client>-server-<server>/} (over HTTP
 * {@code ...-http/}), and writes history only: per case the step script, the driver's client records, a byte-exact
 * transcript per server process, each process's exit, the sealed database, and a {@code history.jsonl} line with the
 * hashes. The checker judges it.
 *
 * <p>Over stdio the client starts each server itself, through the recording relay given as its command. Over HTTP the
 * lab starts every server of a case before the driver runs, each behind an {@link HttpRelay} that writes the server's
 * transcript, and stops them after the driver ended; the script holds only the relay's URL and the name of the
 * variable that carries the token, which the driver alone gets.
 */
public final class ClientsRunner {
    /** How long one case's driver may run before it is killed (and the case recorded as a machinery error). */
    static final Duration CASE_LIMIT = Duration.ofSeconds(180);
    /**
     * The request timeout of a case that drops no reply, when the run's is shorter. Over stdio a client's first
     * request also waits for its server to start, which a loaded machine stretches past 3 s
     * (docs/findings/python-fixture-cold-start-and-the-request-timeout.md); only a case that drops a reply needs the
     * short timeout, to end the wait it causes.
     */
    static final Duration UNHURRIED_TIMEOUT = Duration.ofSeconds(30);
    /**
     * How long the HTTP relay waits on a socket: longer than any pause between a case's steps, so the relay never
     * closes a client's idle kept-alive connection under it, which the client would meet as a lost reply of the lab's
     * own making; a server that never answers is bounded by {@link #CASE_LIMIT}.
     */
    static final Duration RELAY_READ_TIMEOUT = Duration.ofSeconds(60);
    /** The driver's environment variable that holds a principal's token: {@code LAB_BEARER_TOKEN_ALICE}. */
    static final String TOKEN_VARIABLE_PREFIX = "LAB_BEARER_TOKEN_";

    /** How an HTTP server of a case ended, in its exit record (the stdio relay's own are {@link RecordingRelay}'s). */
    enum HttpEnd {
        /** It exited by itself before the lab stopped it (the crash server's 70). */
        SERVER_EXIT("server_exit"),
        /** The lab sent SIGTERM after the driver ended. */
        LAB_STOPPED("lab_stopped");

        final String label;

        HttpEnd(String label) {
            this.label = label;
        }
    }

    private ClientsRunner() {}

    /**
     * @param requestTimeout the clients' request timeout, set on every request; null leaves each SDK's default (how
     *                       the defaults are measured: a dropped reply then waits that long)
     * @param credentials    over HTTP, the run's bearer tokens (unused over stdio, may be null)
     */
    public static void run(List<ClientCase> cases, ClientKind client, ServerKind server, Transport transport, Path out,
            Path home, Duration requestTimeout, BearerCredentials credentials, PrintStream progress) throws Exception {
        if (transport == Transport.HTTP && credentials == null) {
            throw new IllegalArgumentException("client cells over HTTP need bearer credentials");
        }
        String cell = cell(client, server, transport);
        Path attempt = out.resolve(cell);
        if (Files.exists(attempt)) {
            throw new IllegalArgumentException(attempt + " already exists; an attempt folder is never overwritten");
        }
        Files.createDirectories(attempt);
        ObjectNode provenance = Provenance.of(server, home);
        provenance.put("client", client.label());
        provenance.put("transport", transport.label());
        provenance.put("request_timeout_ms", requestTimeout == null ? null : requestTimeout.toMillis());
        provenance.put("request_timeout_ms_without_a_dropped_reply", requestTimeout == null ? null
                : requestTimeout(requestTimeout, false).toMillis());
        write(attempt.resolve(Layout.PROVENANCE), provenance);
        ObjectNode requested = Format.REQUESTED.document();
        ArrayNode list = requested.putArray("cases");
        cases.forEach(c -> list.addObject().put("id", c.id().label()).put("name", c.id().name().toLowerCase(java.util.Locale.ROOT)));
        write(attempt.resolve(Layout.REQUESTED), requested);
        for (ClientCase clientCase : cases) {
            long started = System.nanoTime();
            Path folder = Files.createDirectories(attempt.resolve(Layout.caseFolder(clientCase.id().label())));
            String machineryError = transport == Transport.HTTP
                    ? playOverHttp(clientCase, client, server, folder, home, requestTimeout, credentials)
                    : play(clientCase, client, server, folder, home, requestTimeout);
            RunLog.append(attempt.resolve(Layout.HISTORY), folder, machineryError, java.time.Duration.ofNanos(System.nanoTime() - started));
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
        Exec.Result result = runDriver(clientCase, client, script, folder, home, requestTimeout, secrets);
        String lingering = awaitRelays(folder);
        writeProcesses(folder, result, serverOrder);
        return ending(client, database, result, lingering);
    }

    /** The script's common tail (timeout, version mode, steps), written; then the driver, run to its end or its limit. */
    private static Exec.Result runDriver(ClientCase clientCase, ClientKind client, ObjectNode script, Path folder, Path home,
            Duration requestTimeout, Map<String, String> driverEnvironment) throws IOException, InterruptedException {
        if (requestTimeout == null) {
            script.putNull("request_timeout_ms");
        } else {
            script.put("request_timeout_ms", requestTimeout(requestTimeout, clientCase.dropsAReply()).toMillis());
        }
        script.put("version_mode", clientCase.versionMode());
        script.set("steps", clientCase.steps());
        Path scriptFile = folder.resolve(Layout.SCRIPT);
        write(scriptFile, script);
        return Exec.command(client.command(home, scriptFile, folder.resolve(Layout.CLIENT_RECORDS)))
                .addingEnvironment(driverEnvironment).withStderr(Exec.Io.file(folder.resolve(Layout.DRIVER_STDERR)))
                .run(CASE_LIMIT);
    }

    /** The run's timeout where the case drops a reply, else at least {@link #UNHURRIED_TIMEOUT}. */
    static Duration requestTimeout(Duration requested, boolean dropsAReply) {
        return dropsAReply || requested.compareTo(UNHURRIED_TIMEOUT) >= 0 ? requested : UNHURRIED_TIMEOUT;
    }

    /**
     * Seals the database; null when the driver ran every step, else the machinery error. {@code result} is null when
     * the driver never ran (the caller then says why).
     */
    private static String ending(ClientKind client, Path database, Exec.Result result, String lingering) {
        try {
            lab.continuationreplay.core.ledger.RunLedger.SQLITE.seal(database.getParent());
        } catch (java.sql.SQLException | java.io.IOException locked) {
            return "the database could not be sealed (" + locked.getMessage() + ")" + (lingering == null ? "" : "; " + lingering);
        }
        if (result == null) {
            return null;
        }
        if (result.timedOut()) {
            return "the " + client.label() + " client driver did not finish within " + CASE_LIMIT.toSeconds() + " s";
        }
        return result.exitStatus() == 0 ? null : "the " + client.label() + " client driver exited " + result.exitStatus()
                + " (see " + Layout.DRIVER_STDERR + ")";
    }

    /** The cell's folder name: {@code client-java-server-typescript}, over HTTP {@code client-java-server-typescript-http}. */
    public static String cell(ClientKind client, ServerKind server, Transport transport) {
        return transport.attempt(Layout.clientCell(client.label(), server.label()));
    }

    /** One server of a case over HTTP: the process and the relay in front of it. */
    private record HttpServed(String name, HttpServerProcess process, HttpRelay relay, ContinuationReplyDrop drop) {}

    /**
     * Over HTTP: starts every server of the case (same environment as the matrix gives an HTTP server, one database),
     * each behind a recording relay, runs the driver against the relays' URLs with the tokens in its environment only,
     * then stops the relays and the servers and writes their exits. Null when the driver ran every step, else what
     * stopped the case.
     */
    static String playOverHttp(ClientCase clientCase, ClientKind client, ServerKind server, Path folder, Path home,
            Duration requestTimeout, BearerCredentials credentials) throws Exception {
        Path database = folder.resolve(Layout.DATABASE);
        ObjectNode script = Format.CLIENT_SCRIPT.document();
        ObjectNode servers = script.putObject("servers");
        Map<String, String> tokens = new LinkedHashMap<>();
        Map<String, WireSettings> settingsByServer = new LinkedHashMap<>();
        for (Map.Entry<String, ClientCase.Server> entry : new java.util.TreeMap<>(clientCase.servers()).entrySet()) {
            WireSettings settings = CaseContext.settings(database, entry.getValue().setup());
            settingsByServer.put(entry.getKey(), settings);
            tokens.put(tokenVariable(settings.principal()), credentials.token(settings.principal()));
        }
        // every token is minted before the first relay starts, so each relay can name any of them in its transcript
        Map<String, String> principalsByToken = credentials.principalsByToken();
        List<HttpServed> started = new ArrayList<>();
        Exec.Result result = null;
        String startFailure = null;
        try {
            for (Map.Entry<String, WireSettings> entry : settingsByServer.entrySet()) {
                String name = entry.getKey();
                WireSettings settings = entry.getValue();
                Map<String, String> environment = CaseContext.httpEnvironment(settings, credentials);
                environment.putAll(server.environment(home));
                HttpServerProcess process;
                try {
                    process = HttpServerProcess.start(server.label() + " server " + folder.getFileName() + "/" + name,
                            server.command(home), environment, folder.resolve(Layout.transcript(name)),
                            folder.resolve(Layout.stdout(name)), folder.resolve(Layout.stderr(name)), RELAY_READ_TIMEOUT,
                            credentials.token(settings.principal()), principalsByToken);
                } catch (TransportFailure failure) {
                    startFailure = failure.getMessage();
                    break;
                }
                int drop = clientCase.servers().get(name).dropReplyToContinuation();
                ContinuationReplyDrop plan = drop > 0 ? new ContinuationReplyDrop(drop) : null;
                HttpRelay relay;
                try {
                    relay = HttpRelay.start(process.exchanges().endpoint(), process.transcript(),
                            plan != null ? plan : ExchangePlan.forwardAll(), RELAY_READ_TIMEOUT, principalsByToken);
                } catch (IOException | RuntimeException e) {
                    process.close();
                    throw e;
                }
                started.add(new HttpServed(name, process, relay, plan));
                servers.putObject(name).put("url", relay.endpoint().toString())
                        .put("bearer_token_env", tokenVariable(settings.principal()));
            }
            if (startFailure == null) {
                result = runDriver(clientCase, client, script, folder, home, requestTimeout, tokens);
            }
        } finally {
            stopServers(started, folder);
        }
        writeProcesses(folder, result, new ArrayList<>(settingsByServer.keySet()));
        String ended = ending(client, database, result, null);
        return startFailure == null ? ended : "a server did not start over HTTP, so the driver did not run: " + startFailure;
    }

    /** {@code LAB_BEARER_TOKEN_ALICE}: a variable name any shell and both drivers accept, whatever the principal. */
    static String tokenVariable(String principal) {
        return TOKEN_VARIABLE_PREFIX + principal.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /**
     * The relays first, so no request reaches a server that is going away; then each server by SIGTERM, noting
     * whether it had already ended by itself; then its exit record and, when the relay dropped a reply, its relay log.
     */
    private static void stopServers(List<HttpServed> started, Path folder) throws IOException {
        for (HttpServed served : started) {
            served.relay().close();
        }
        for (HttpServed served : started) {
            HttpEnd end = served.process().isAlive() ? HttpEnd.LAB_STOPPED : HttpEnd.SERVER_EXIT;
            served.process().close();
            ObjectNode exit = Format.EXIT.document();
            exit.put("name", served.name());
            exit.put("exit_status", served.process().exitStatus());
            exit.put("ended_by", end.label);
            write(folder.resolve(served.name() + Layout.EXIT_SUFFIX), exit);
            if (served.drop() != null) {
                Optional<JsonNode> dropped = served.drop().droppedId(served.relay().events());
                if (dropped.isPresent()) {
                    ObjectNode record = Format.RELAY.document();
                    record.set("dropped_reply_to", dropped.get());
                    record.put("continuation", served.drop().continuation());
                    Files.writeString(folder.resolve(served.name() + Layout.RELAY_SUFFIX),
                            ExactJson.mapper().writeValueAsString(record) + "\n");
                }
            }
        }
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
        // a driver that never ran (an HTTP server did not start) has no status, as one killed at the case limit has none
        processes.addObject().put("name", "driver").put("exit_status", driver == null || driver.timedOut() ? null : driver.exitStatus());
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
