package lab.continuationreplay.faults.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.vectors.ExactJson;

/** One SDK behind the proxy: run the operations, recover each one, then judge the rows. */
final class ProxyRun {
    /** The plan of every run: each direction loses, doubles, holds back, swaps or cuts about a third of its frames. */
    static final String PLAN = "up.drop=0.06,up.duplicate=0.12,up.delay=0.06,up.reorder=0.04,up.truncate=0.05,"
            + "down.drop=0.08,down.duplicate=0.08,down.delay=0.06,down.reorder=0.04,down.truncate=0.05,delay-ms=150";
    private static final Duration READ_TIMEOUT = Duration.ofMillis(1000);
    private static final int ATTEMPTS = 12;

    private final FaultSession session;
    private final ServerKind sdk;
    private final Path folder;
    private final long seed;
    private Path database;
    private int recoveredByStatus;
    private int recoveredByRetry;
    private int continuationRetries;
    private int unresolved;
    private int stateRefusals;

    ProxyRun(FaultSession session, ServerKind sdk, Path folder, long seed) {
        this.session = session;
        this.sdk = sdk;
        this.folder = folder;
        this.seed = seed;
    }

    private String scope() {
        return session.scope(sdk);
    }

    /** The command line: the proxy as its own JVM with the lab jar's class path, then the server's command. */
    static List<String> proxyCommand(Path home, long seed, String plan, Path log, List<String> server) {
        List<String> command = JavaCommand.labMain(home, List.of("-XX:TieredStopAtLevel=1"), StdioProxyMain.class);
        command.addAll(List.of("--seed", Long.toString(seed), "--plan", plan, "--log", log.toString(), "--"));
        command.addAll(server);
        return command;
    }

    ObjectNode drive(int operations) throws Exception {
        database = folder.resolve("store.sqlite3");
        session.history().ledger(scope(), database, "px-" + sdk.label() + "-");
        Path log = folder.resolve("proxy-faults.jsonl");
        WireSettings settings = WireSettings.matrix(database, "alice");
        Files.writeString(folder.resolve("proxy-command.txt"), "seed " + seed + "\nplan " + PLAN + "\n");
        List<String> clientBelievesApplied = new ArrayList<>();
        boolean stillServing;
        try (ServerProcess proxied = ServerProcess.start(proxyCommand(session.home(), seed, PLAN, log, sdk.command(session.home())),
                session.ledger().environment(settings), folder.resolve("proxied.transcript.log"), folder.resolve("proxied.stderr.log"), READ_TIMEOUT)
                .toleratingDamagedLines()) {
            for (int k = 0; k < operations; k++) {
                ObjectNode arguments = ToolClient.arguments("px-" + sdk.label() + "-" + k, "proxy " + k, k % 5 == 4 ? "partial" : "atomic");
                session.history().sent(scope(), database, arguments.path("operation_id").asText());
                if (operate(proxied, arguments)) {
                    clientBelievesApplied.add(arguments.path("operation_id").asText());
                }
            }
            stillServing = statusOf(proxied, "px-" + sdk.label() + "-0") != null;
        }
        // The proxy has ended (its stdin closed); its summary is the last line of the fault log.
        session.history().expect(scope(), "the server behind the proxy at the end", "answering", stillServing ? "answering" : "not answering");
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        JsonNode summary = summary(log);
        figures.put("frames_seen", summary.path("up").path("seen").asLong() + summary.path("down").path("seen").asLong());
        for (String fault : List.of("drop", "duplicate", "delay", "reorder", "truncate")) {
            figures.put(fault.equals("drop") ? "dropped" : fault.equals("duplicate") ? "duplicated" : fault.equals("delay") ? "delayed"
                    : fault.equals("reorder") ? "reordered" : "truncated",
                    summary.path("up").path(fault).asLong() + summary.path("down").path(fault).asLong());
        }
        figures.put("operations", operations);
        figures.put("told_applied", clientBelievesApplied.size());
        figures.put("recovered_by_status", recoveredByStatus);
        figures.put("recovered_by_retry", recoveredByRetry);
        figures.put("continuation_retries", continuationRetries);
        figures.put("replayed_replies_seen", countReceived(folder.resolve("proxied.transcript.log"), "\"replayed\":true"));
        figures.put("state_refusals_restarted", stateRefusals);
        figures.put("unresolved", unresolved);
        figures.put("still_serving", stillServing);
        session.history().expect(scope(), "the proxy's summary", "written", summary.isMissingNode() ? "missing" : "written");
        return figures;
    }

    /**
     * Round one, then the continuation until the client knows the outcome; true if it learns the effect applied. A
     * continuation the proxy duplicated is two requests with one id in flight; the TypeScript fixture then verifies
     * neither (an ambiguous id) and refuses the state. Nothing applied, so the client starts over with a new round one.
     */
    private boolean operate(ServerProcess server, ObjectNode arguments) throws Exception {
        for (int start = 0; start < 3; start++) {
            Boolean outcome = attempt(server, arguments);
            if (outcome != null) {
                return outcome;
            }
            stateRefusals++;
            JsonNode status = statusOf(server, arguments.path("operation_id").asText());
            if (status != null && isEffect(status.path("state").asText())) {
                recoveredByStatus++;
                session.history().succeeded(scope(), database, arguments.path("operation_id").asText());
                return true;
            }
        }
        unresolved++;
        return false;
    }

    /** One round one and its continuation: true/false as the client learns it, null for a refused state. */
    private Boolean attempt(ServerProcess server, ObjectNode arguments) throws Exception {
        String operationId = arguments.path("operation_id").asText();
        String token = null;
        for (int attempt = 0; attempt < ATTEMPTS && token == null; attempt++) {
            try {
                Reply reply = new Reply(server.callTool(ToolClient.CREATE, arguments, null, null));
                token = reply.inputRequired() ? reply.requestState() : null;
            } catch (TransportFailure lost) {
                // round one has no effect: simply ask again
            }
        }
        if (token == null) {
            unresolved++;
            return false;
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            if (attempt > 0) {
                continuationRetries++;
            }
            try {
                Reply reply = ToolClient.on(server).continuation(ToolClient.CREATE, arguments, JsonNodeFactory.instance.textNode(token), "proxy body");
                if (reply.isSuccess()) {
                    if (attempt > 0) {
                        recoveredByRetry++;
                    }
                    session.history().succeeded(scope(), database, operationId);
                    return true;
                }
                session.history().refused(scope(), database, operationId, reply.refusalText());
                if (reply.isStateRefusal()) {
                    return null;
                }
                if (!session.history().expect(scope(), operationId + ": a refusal", "operation_in_progress or a refused state",
                        "operation_in_progress".equals(reply.mechanism()) ? "operation_in_progress or a refused state" : reply.refusalText())) {
                    return false;
                }
            } catch (TransportFailure lost) {
                // the reply (or the request) was lost: ask for the status, as a client should
                session.history().lost(scope(), database, operationId, lost.getMessage());
            }
            JsonNode status = statusOf(server, operationId);
            if (status != null && isEffect(status.path("state").asText())) {
                recoveredByStatus++;
                session.history().succeeded(scope(), database, operationId);
                return true;
            }
            // unknown: the continuation may never have arrived; sending the same one again is safe
        }
        unresolved++;
        return false;
    }

    /** The status object, retried through the faults; null if no valid status arrived. */
    private JsonNode statusOf(ServerProcess server, String operationId) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                Reply reply = ToolClient.on(server).status(operationId);
                if (reply.isSuccess() && reply.structured().path("operationId").asText().equals(operationId)) {
                    return reply.structured();
                }
            } catch (TransportFailure lost) {
                // try again
            }
        }
        return null;
    }

    private static boolean isEffect(String state) {
        return "applied".equals(state) || "partial".equals(state);
    }

    private static JsonNode summary(Path log) throws Exception {
        if (!Files.exists(log)) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--) {
            JsonNode line = ExactJson.parse(lines.get(i));
            if ("summary".equals(line.path("event").asText())) {
                return line;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static long countReceived(Path transcript, String needle) throws Exception {
        try (var lines = Files.lines(transcript, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.startsWith("< ") && l.contains(needle)).count();
        }
    }
}
