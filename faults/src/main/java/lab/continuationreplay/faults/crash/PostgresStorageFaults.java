package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.faults.common.FaultLedger;
import lab.continuationreplay.faults.common.LedgerRows;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The storage experiment on a database server ({@code lab faults --ledger postgres}). A SQLite file fails by its file
 * (a lock on it, a full or read-only disk); a PostgreSQL ledger fails by its server, so the faults are the server's:
 * <ul>
 *   <li>{@code connection_refused}: the server (or the fixture's bridge) is given a ledger URL whose port has nothing
 *       listening. Every call that needs the ledger gets a clear storage error, nothing is written anywhere, and the
 *       process keeps serving.
 *   <li>{@code statement_timeout}: the server's URL sets {@code statement_timeout} (as an operator would, with the
 *       driver's {@code options}), and the lab holds an exclusive lock on the ledger's {@code operations} table in a
 *       transaction of its own. The continuation's first statement waits, is cancelled at the timeout (before the
 *       ledger's own 5 s lock timeout) and answered with a clear storage error and no row; once the lab lets go,
 *       the same continuation creates its one effect.
 *   <li>{@code database_restarted}: the run's PostgreSQL stopped and started again between two calls (the next call
 *       must succeed on a new session, or fail clearly and then succeed), and stopped during a call (a clear error,
 *       no row, then success once it is back). No duplicate, nothing lost: the effects committed before are still
 *       there with their stored results. Only on the lab's own server: a given one is not the lab's to stop.
 * </ul>
 */
final class PostgresStorageFaults {
    /** Shorter than the ledger's lock timeout (5 s), so a cancel after about this long is the statement timeout's. */
    static final int STATEMENT_TIMEOUT_MS = 1500;

    private PostgresStorageFaults() {}

    static Map<String, String> notApplicable(FaultSession session) {
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("lock_held", "SQLite's file lock (BEGIN EXCLUSIVE on the file past the busy timeout) has no PostgreSQL"
                + " form; a lock held in the database is statement_timeout here");
        parts.put("disk_full", "a 4 MiB tmpfs under the ledger's SQLite file: a PostgreSQL ledger has no file of its own,"
                + " and its server's data folder is shared by every ledger of the run");
        parts.put("read_only", "a read-only tmpfs under the ledger's SQLite file: no file of its own, as for disk_full");
        if (embedded(session).isEmpty()) {
            parts.put("database_restarted", "the lab was given its PostgreSQL (WIRE_LEDGER_URL) and does not stop a server"
                    + " it did not start");
        }
        return parts;
    }

    static ExperimentReport run(StorageFaultsExperiment experiment, FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        List<String> findings = new ArrayList<>();
        Map<String, String> notApplicable = notApplicable(session);
        for (ServerKind sdk : session.sdks()) {
            ObjectNode sdkFigures = figures.putObject(sdk.label());
            sdkFigures.put("connection_refused", connectionRefused(session, sdk, findings));
            sdkFigures.put("statement_timeout", statementTimeout(session, sdk, findings));
            Optional<EmbeddedPostgres> server = embedded(session);
            if (server.isPresent()) {
                sdkFigures.put("database_restarted", databaseRestarted(session, sdk, server.get(), findings));
            }
            // the reasons are listed once, in faults.json's not_applicable and FAULTS.md
            notApplicable.keySet().forEach(part -> sdkFigures.put(part, "not applicable on PostgreSQL"));
        }
        return new ExperimentReport(experiment.name(), "on PostgreSQL: connection refused, statement timeout, database"
                + " restarted: clear wire error, no partial rows, service resumes, no duplicate", findings.isEmpty(), figures,
                findings, 0);
    }

    private static Optional<EmbeddedPostgres> embedded(FaultSession session) {
        return session.ledger().postgres().flatMap(PostgresRunLedger::server);
    }

    /** A URL to a loopback port with nothing listening: every call that needs the ledger must fail clearly, harmlessly. */
    private static String connectionRefused(FaultSession session, ServerKind sdk, List<String> findings) throws Exception {
        String label = sdk.label() + " connection refused";
        Path folder = session.folder("storage", sdk.label(), "connection-refused");
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        Map<String, String> environment = session.ledger().environment(settings);
        int port = deadPort();
        environment.put(TrustedEnvironment.LEDGER_URL,
                environment.get(TrustedEnvironment.LEDGER_URL).replaceFirst("^jdbc:postgresql://[^/]+/", "jdbc:postgresql://127.0.0.1:" + port + "/"));
        ObjectNode arguments = ToolClient.arguments(label.replace(' ', '-'), "fault " + label, "atomic");
        List<String> answers = new ArrayList<>();
        try (ToolClient client = client(session, sdk, environment, folder)) {
            Reply first = client.firstRound(arguments);
            Reply write;
            if (first.inputRequired()) {
                answers.add("round one asked for input");
                write = client.commit(arguments, first.requestState(), "while nothing listens");
            } else {
                write = first; // a server that opens its ledger before round one refuses it there
            }
            answers.add(judgeRefusal(write, first.inputRequired() ? "the write" : "round one", label, findings));
            answers.add(judgeRefusal(client.status(arguments.path("operation_id").asText()), "the status", label, findings));
            // still serving: a second write is refused the same way, and a request that needs no ledger is answered
            Reply again = first.inputRequired() ? client.commit(arguments, first.requestState(), "while nothing listens") : client.firstRound(arguments);
            judgeRefusal(again, "the write asked again", label, findings);
            client.process().request("tools/list", JsonNodeFactory.instance.objectNode());
            if (!client.isAlive()) {
                findings.add(label + ": the server ended");
            }
            answers.add("still serving");
        } catch (TransportFailure e) {
            findings.add(label + ": no answer on the wire: " + e.getMessage());
            answers.add("no answer");
        }
        LedgerRows.Counts rows = LedgerRows.count(session.ledger(), database);
        if (rows.issues() != 0 || rows.operations() != 0) {
            findings.add(label + ": rows appeared in the ledger's schema: " + rows);
        }
        return String.join("; ", answers) + "; no rows (port " + port + ")";
    }

    /**
     * The lab holds an exclusive lock on the ledger's {@code operations} table; the server's {@code statement_timeout}
     * must cancel the continuation's statement with a clear error, and the same continuation must commit once released.
     */
    private static String statementTimeout(FaultSession session, ServerKind sdk, List<String> findings) throws Exception {
        String label = sdk.label() + " statement timeout";
        Path folder = session.folder("storage", sdk.label(), "statement-timeout");
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        Map<String, String> environment = session.ledger().environment(settings);
        String url = environment.get(TrustedEnvironment.LEDGER_URL);
        environment.put(TrustedEnvironment.LEDGER_URL, url + (url.contains("?") ? "&" : "?")
                + "options=-c%20statement_timeout%3D" + STATEMENT_TIMEOUT_MS);
        PostgresRunLedger run = session.ledger().postgres().orElseThrow();
        String schema = run.schema(database).orElseThrow();
        Connection[] holder = new Connection[1];
        StorageFaultsExperiment.Fault lock = new StorageFaultsExperiment.Fault() {
            @Override
            public void on() throws Exception {
                holder[0] = run.database().connect();
                try (Statement statement = holder[0].createStatement()) {
                    statement.execute("BEGIN");
                    // the schema is the lab's own name, never input
                    statement.execute("LOCK TABLE " + schema + ".operations IN ACCESS EXCLUSIVE MODE");
                }
            }

            @Override
            public void off() throws Exception {
                try (Statement statement = holder[0].createStatement()) {
                    statement.execute("ROLLBACK");
                }
                holder[0].close();
            }
        };
        try (ToolClient client = client(session, sdk, environment, folder)) {
            long started = System.nanoTime();
            String outcome = StorageFaultsExperiment.scenario(session.ledger(), client, database, lock, label, findings);
            long waitedMs = (System.nanoTime() - started) / 1_000_000;
            if (waitedMs >= 5000) {
                findings.add(label + ": the scenario took " + waitedMs + " ms: the statement timeout ("
                        + STATEMENT_TIMEOUT_MS + " ms) did not end the wait before the ledger's 5 s lock timeout");
            }
            return outcome + " (statement_timeout " + STATEMENT_TIMEOUT_MS + " ms)";
        } finally {
            if (holder[0] != null && !holder[0].isClosed()) {
                holder[0].close();
            }
        }
    }

    /** The run's PostgreSQL stopped and started between calls, then stopped during a call; the same server process throughout. */
    private static String databaseRestarted(FaultSession session, ServerKind sdk, EmbeddedPostgres server, List<String> findings)
            throws Exception {
        String label = sdk.label() + " database restarted";
        String tag = sdk.label() + "-restart";
        Path folder = session.folder("storage", sdk.label(), "database-restarted");
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        FaultLedger ledger = session.ledger();
        List<String> steps = new ArrayList<>();
        Map<String, String> committed = new LinkedHashMap<>();
        try (ToolClient client = client(session, sdk, ledger.environment(settings), folder)) {
            ObjectNode before = ToolClient.arguments(tag + "-before", "fault " + tag + "-before", "atomic");
            committed.put(tag + "-before", created(client.commit(before, client.roundOne(before), "before"), label + " before", findings));

            // between calls: the next call meets a session the restart ended
            ObjectNode between = ToolClient.arguments(tag + "-between", "fault " + tag + "-between", "atomic");
            String betweenState = client.roundOne(between);
            server.stop();
            server.restart();
            Reply next = client.commit(between, betweenState, "after the restart");
            if (next.isSuccess()) {
                steps.add("restarted between calls: the next call " + outcome(next) + " on a new session");
            } else if (StorageFaultsExperiment.isStorageError(next)) {
                steps.add("restarted between calls: the next call refused \"" + next.refusalText() + "\"");
                next = client.commit(between, betweenState, "after the restart");
                steps.add("then " + outcome(next));
            } else {
                findings.add(label + ": after the restart the next call was neither a success nor a storage error: " + next.raw());
            }
            committed.put(tag + "-between", created(next, label + " between", findings));

            // during a call: the server is down when the continuation arrives
            ObjectNode during = ToolClient.arguments(tag + "-during", "fault " + tag + "-during", "atomic");
            String duringState = client.roundOne(during);
            long issuesBefore = ledger.count(database, "issues");
            server.stop();
            Reply down;
            try {
                down = client.commit(during, duringState, "while the database is down");
            } finally {
                server.restart();
            }
            steps.add("stopped during a call: " + judgeRefusal(down, "the write", label, findings));
            long rowsOfRefused = ledger.rows(database, "SELECT 1 FROM operations WHERE operation_id = ?", tag + "-during").size();
            if (ledger.count(database, "issues") != issuesBefore || rowsOfRefused != 0) {
                findings.add(label + ": the write refused while the database was down left rows");
            }
            Reply back = client.commit(during, duringState, "while the database is down");
            steps.add("started again: " + outcome(back));
            committed.put(tag + "-during", created(back, label + " during", findings));
            Reply replay = client.commit(during, duringState, "while the database is down");
            steps.add("the same continuation again: " + outcome(replay));
            if (!"replayed".equals(outcome(replay))) {
                findings.add(label + ": the same continuation again was " + outcome(replay));
            }
        } catch (TransportFailure e) {
            findings.add(label + ": no answer on the wire: " + e.getMessage());
        }
        // nothing lost: every effect the client was told of is applied with the result it was told
        for (Map.Entry<String, String> told : committed.entrySet()) {
            List<Map<String, Object>> row = ledger.rows(database, "SELECT state, result FROM operations WHERE operation_id = ?",
                    told.getKey());
            if (told.getValue() != null && (row.isEmpty() || !"applied".equals(row.get(0).get("state"))
                    || !told.getValue().equals(row.get(0).get("result")))) {
                findings.add(label + ": " + told.getKey() + " was answered " + told.getValue() + " but its row is " + row);
            }
        }
        Map<String, Long> byTitle = LedgerRows.issuesByTitle(ledger, database);
        byTitle.forEach((title, count) -> {
            if (count > 1) {
                findings.add(label + ": title '" + title + "' has " + count + " issues");
            }
        });
        LedgerInvariants.of(ledger, database).violations().forEach(v -> findings.add(label + ": " + v));
        return String.join("; ", steps) + "; " + byTitle.size() + " effects, no duplicate";
    }

    /** A storage error is the one acceptable answer; anything else is a finding. Returns how it was answered. */
    private static String judgeRefusal(Reply reply, String what, String label, List<String> findings) {
        if (!reply.refused()) {
            findings.add(label + ": " + what + " succeeded: " + reply.raw());
            return what + " NOT refused";
        }
        if (!StorageFaultsExperiment.isStorageError(reply)) {
            findings.add(label + ": " + what + " refused, but not as a storage error: " + reply.refusalText());
        }
        return what + " refused \"" + reply.refusalText() + "\"";
    }

    /** The stored result of a reply that must be a fresh effect; null (and a finding) otherwise. */
    private static String created(Reply reply, String label, List<String> findings) {
        if (!"created".equals(outcome(reply))) {
            findings.add(label + ": expected a new effect, got " + reply.raw());
            return null;
        }
        return reply.structured().path("result").asText();
    }

    private static String outcome(Reply reply) {
        if (reply.refused()) {
            return "refused: " + reply.refusalText();
        }
        return reply.structured().path("replayed").asBoolean() ? "replayed" : "created";
    }

    /** A stdio server with exactly {@code environment}: the storage experiment runs over stdio only. */
    private static ToolClient client(FaultSession session, ServerKind sdk, Map<String, String> environment, Path folder)
            throws IOException, TransportFailure {
        return ToolClient.on(ServerProcess.start(sdk.command(session.home()), environment, folder.resolve("server.transcript.log"),
                folder.resolve("server.stderr.log"), ServerProcess.READ_TIMEOUT));
    }

    /** A loopback port that was free a moment ago and has nothing listening on it. */
    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
