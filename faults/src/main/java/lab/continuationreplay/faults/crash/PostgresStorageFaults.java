package lab.continuationreplay.faults.crash;

import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.ExperimentReport;

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
import lab.continuationreplay.faults.FaultLedger;
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

    static ExperimentReport run(String name, FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        Map<String, String> notApplicable = notApplicable(session);
        for (ServerKind sdk : session.sdks()) {
            ObjectNode sdkFigures = figures.putObject(sdk.label());
            sdkFigures.put("connection_refused", connectionRefused(session, sdk));
            sdkFigures.put("statement_timeout", statementTimeout(session, sdk));
            Optional<EmbeddedPostgres> server = embedded(session);
            if (server.isPresent()) {
                sdkFigures.put("database_restarted", databaseRestarted(session, sdk, server.get()));
            }
            // the reasons are listed once, in faults.json's not_applicable and FAULTS.md
            notApplicable.keySet().forEach(part -> sdkFigures.put(part, "not applicable on PostgreSQL"));
        }
        return new ExperimentReport(name, "on PostgreSQL: connection refused, statement timeout, database"
                + " restarted: clear wire error, no partial rows, service resumes, no duplicate", true, figures, List.of(), 0);
    }

    private static Optional<EmbeddedPostgres> embedded(FaultSession session) {
        return session.ledger().postgres().flatMap(PostgresRunLedger::server);
    }

    /** A URL to a loopback port with nothing listening: every call that needs the ledger must fail clearly, harmlessly. */
    private static String connectionRefused(FaultSession session, ServerKind sdk) throws Exception {
        String scope = sdk.label() + " connection refused";
        FaultRecorder history = session.history();
        Path folder = session.folder("storage", sdk.label(), "connection-refused");
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        Map<String, String> environment = session.ledger().environment(settings);
        int port = deadPort();
        environment.put(TrustedEnvironment.LEDGER_URL,
                environment.get(TrustedEnvironment.LEDGER_URL).replaceFirst("^jdbc:postgresql://[^/]+/", "jdbc:postgresql://127.0.0.1:" + port + "/"));
        String operation = scope.replace(' ', '-');
        ObjectNode arguments = ToolClient.arguments(operation, "fault " + scope, "atomic");
        // every row of this ledger would be one nothing should have written
        history.ledger(scope, database, "");
        history.cut(scope, "ledger URL to port " + port + ", where nothing listens");
        List<String> answers = new ArrayList<>();
        try (ToolClient client = client(session, sdk, environment, folder)) {
            history.sent(scope, database, operation);
            Reply first = client.firstRound(arguments);
            Reply write;
            if (first.inputRequired()) {
                answers.add("round one asked for input");
                write = client.commit(arguments, first.requestState(), "while nothing listens");
            } else {
                write = first; // a server that opens its ledger before round one refuses it there
            }
            history.answer(scope, database, operation, write);
            answers.add(refusal(history, scope, write, first.inputRequired() ? "the write" : "round one"));
            answers.add(refusal(history, scope, client.status(operation), "the status"));
            // still serving: a second write is refused the same way, and a request that needs no ledger is answered
            Reply again = first.inputRequired() ? client.commit(arguments, first.requestState(), "while nothing listens") : client.firstRound(arguments);
            history.answer(scope, database, operation, again);
            refusal(history, scope, again, "the write asked again");
            client.process().request("tools/list", JsonNodeFactory.instance.objectNode());
            history.expect(scope, "the server after the refusals", "still serving", client.isAlive() ? "still serving" : "ended");
            answers.add("still serving");
        } catch (TransportFailure e) {
            history.lost(scope, database, operation, e.getMessage());
            history.expect(scope, "an answer on the wire", "answered", "none: " + e.getMessage());
            answers.add("no answer");
        }
        return String.join("; ", answers) + " (port " + port + ")";
    }

    /**
     * The lab holds an exclusive lock on the ledger's {@code operations} table; the server's {@code statement_timeout}
     * must cancel the continuation's statement with a clear error, and the same continuation must commit once released.
     */
    private static String statementTimeout(FaultSession session, ServerKind sdk) throws Exception {
        String scope = sdk.label() + " statement timeout";
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
        StorageScenario.Fault lock = new StorageScenario.Fault() {
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
            String outcome = new StorageScenario(session.history(), scope, session.ledger(), client, database, database).play(lock);
            long waitedMs = (System.nanoTime() - started) / 1_000_000;
            // the statement timeout, not the ledger's own 5 s lock timeout, must end the wait
            session.history().expect(scope, "the scenario's time", "under 5000 ms", waitedMs < 5000 ? "under 5000 ms" : waitedMs + " ms");
            return outcome + " (statement_timeout " + STATEMENT_TIMEOUT_MS + " ms)";
        } finally {
            if (holder[0] != null && !holder[0].isClosed()) {
                holder[0].close();
            }
        }
    }

    /** The run's PostgreSQL stopped and started between calls, then stopped during a call; the same server process throughout. */
    private static String databaseRestarted(FaultSession session, ServerKind sdk, EmbeddedPostgres server) throws Exception {
        String scope = sdk.label() + " database restarted";
        String tag = sdk.label() + "-restart";
        FaultRecorder history = session.history();
        Path folder = session.folder("storage", sdk.label(), "database-restarted");
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        FaultLedger ledger = session.ledger();
        history.ledger(scope, database, tag);
        List<String> steps = new ArrayList<>();
        try (ToolClient client = client(session, sdk, ledger.environment(settings), folder)) {
            ObjectNode before = ToolClient.arguments(tag + "-before", "fault " + tag + "-before", "atomic");
            history.sent(scope, database, tag + "-before");
            expectCreated(history, scope, database, tag + "-before", client.commit(before, client.roundOne(before), "before"));

            steps.addAll(restartBetweenCalls(history, scope, database, client, server, tag));

            // during a call: the server is down when the continuation arrives
            ObjectNode during = ToolClient.arguments(tag + "-during", "fault " + tag + "-during", "atomic");
            String duringState = client.roundOne(during);
            long issuesBefore = ledger.count(database, "issues");
            history.sent(scope, database, tag + "-during");
            server.stop();
            history.kill(scope, "database", "stopped during a call");
            Reply down;
            try {
                down = client.commit(during, duringState, "while the database is down");
            } finally {
                server.restart();
            }
            history.answer(scope, database, tag + "-during", down);
            steps.add("stopped during a call: " + refusal(history, scope, down, "the write"));
            long rowsOfRefused = ledger.rows(database, "SELECT 1 FROM operations WHERE operation_id = ?", tag + "-during").size();
            history.expect(scope, "rows left by the write refused while the database was down", "issues " + issuesBefore + ", ledger rows 0",
                    "issues " + ledger.count(database, "issues") + ", ledger rows " + rowsOfRefused);
            Reply back = client.commit(during, duringState, "while the database is down");
            steps.add("started again: " + StorageScenario.outcome(back));
            expectCreated(history, scope, database, tag + "-during", back);
            Reply replay = client.commit(during, duringState, "while the database is down");
            history.answer(scope, database, tag + "-during", replay);
            steps.add("the same continuation again: " + StorageScenario.outcome(replay));
            history.expect(scope, "the same continuation again", "replayed", StorageScenario.outcome(replay));
        } catch (TransportFailure e) {
            history.expect(scope, "an answer on the wire", "answered", "none: " + e.getMessage());
        }
        return String.join("; ", steps);
    }

    /** The database stopped and started between round one and its continuation: the next call meets a session it ended. */
    private static List<String> restartBetweenCalls(FaultRecorder history, String scope, Path database, ToolClient client,
            EmbeddedPostgres server, String tag) throws Exception {
        List<String> steps = new ArrayList<>();
        ObjectNode between = ToolClient.arguments(tag + "-between", "fault " + tag + "-between", "atomic");
        String betweenState = client.roundOne(between);
        history.sent(scope, database, tag + "-between");
        server.stop();
        history.kill(scope, "database", "stopped and started between calls");
        server.restart();
        Reply next = client.commit(between, betweenState, "after the restart");
        history.answer(scope, database, tag + "-between", next);
        history.expect(scope, "the next call after a restart between calls", "a success or a storage error",
                next.isSuccess() || StorageScenario.isStorageError(next) ? "a success or a storage error" : next.raw());
        if (next.isSuccess()) {
            steps.add("restarted between calls: the next call " + StorageScenario.outcome(next) + " on a new session");
        } else if (StorageScenario.isStorageError(next)) {
            steps.add("restarted between calls: the next call refused \"" + next.refusalText() + "\"");
            next = client.commit(between, betweenState, "after the restart");
            steps.add("then " + StorageScenario.outcome(next));
        }
        expectCreated(history, scope, database, tag + "-between", next);
        return steps;
    }

    /** A storage error is the one acceptable answer. Returns how it was answered, in words. */
    private static String refusal(FaultRecorder history, String scope, Reply reply, String what) {
        String observed = !reply.refused() ? "succeeded: " + reply.raw()
                : StorageScenario.isStorageError(reply) ? "refused as a storage error" : "refused: " + reply.refusalText();
        history.expect(scope, what, "refused as a storage error", observed);
        return reply.refused() ? what + " refused \"" + reply.refusalText() + "\"" : what + " NOT refused";
    }

    /** A reply that must be a fresh effect. */
    private static void expectCreated(FaultRecorder history, String scope, Path database, String operation, Reply reply) {
        history.answer(scope, database, operation, reply);
        history.expect(scope, operation, "created", StorageScenario.outcome(reply));
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
