package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.JvmLifetime;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.history.StoreRows;

/**
 * Row 8: does the ledger slow down as it grows? Two warm guarded Java servers over stdio, one on a SQLite ledger of
 * {@link #SMALL_ROWS} operations and one on a ledger of the plan's large size (1,000,000 in a full run), timed in
 * interleaved rounds: each call is round one and the continuation that commits, then the status read-back of an
 * operation drawn at random from the whole ledger. Rows are never deleted (the seed keeps tombstones), so a large
 * ledger is what a long-lived server has. The seeded rows copy one real committed operation (its issue, its
 * operation row and its events) under new ids, in one transaction, before the timing starts.
 */
final class LargeLedgerBench {
    static final int SMALL_ROWS = 1_000;
    private static final int ROUNDS = 5;

    private LargeLedgerBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("large-ledger"));
        int perRound = Math.max(1, plan.timedCalls() / ROUNDS);
        List<Double> continuationRounds = new ArrayList<>();
        List<Double> statusRounds = new ArrayList<>();
        long seedMillis;
        Map<String, Ledger> ledgers = new LinkedHashMap<>();
        try {
            ledgers.put("small", Ledger.start(plan, work.resolve("small"), "small"));
            ledgers.put("large", Ledger.start(plan, work.resolve("large"), "large"));
            ledgers.get("small").seed(SMALL_ROWS);
            long t0 = System.nanoTime();
            ledgers.get("large").seed(plan.largeLedgerRows());
            seedMillis = (System.nanoTime() - t0) / 1_000_000;
            for (Ledger ledger : ledgers.values()) {
                ledger.calls(plan.warmupCalls(), false);
            }
            for (int round = 0; round < ROUNDS; round++) {
                // the pair's order flips each round, so a drift of the machine lands on both sides
                Ledger first = ledgers.get(round % 2 == 0 ? "small" : "large");
                Ledger second = ledgers.get(round % 2 == 0 ? "large" : "small");
                first.calls(perRound, true);
                second.calls(perRound, true);
                Ledger small = ledgers.get("small");
                Ledger large = ledgers.get("large");
                continuationRounds.add(large.lastContinuationP50 / small.lastContinuationP50);
                statusRounds.add(large.lastStatusP50 / small.lastStatusP50);
            }
            for (Ledger ledger : ledgers.values()) {
                ledger.checkRows();
            }
        } finally {
            for (Ledger ledger : ledgers.values()) {
                ledger.close();
            }
        }
        Ledger small = ledgers.get("small");
        Ledger large = ledgers.get("large");
        LatencyStats smallContinuation = LatencyStats.of(small.continuation.toArray(), 0);
        LatencyStats largeContinuation = LatencyStats.of(large.continuation.toArray(), 0);
        LatencyStats smallStatus = LatencyStats.of(small.status.toArray(), 0);
        LatencyStats largeStatus = LatencyStats.of(large.status.toArray(), 0);
        progress.printf("bench      large ledger: %,d rows seeded in %.1f s; continuation p50 %.3f ms at %,d rows, %.3f ms at %,d;"
                + " status p50 %.3f ms, %.3f ms%n", large.rows, seedMillis / 1000.0, smallContinuation.p50Ms(), small.rows,
                largeContinuation.p50Ms(), large.rows, smallStatus.p50Ms(), largeStatus.p50Ms());
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("small_rows", small.rows);
        figures.put("large_rows", large.rows);
        figures.put("large_seed_ms", seedMillis);
        figures.put("large_file_mib", Round.of(large.fileBytes() / (1024.0 * 1024.0)));
        figures.put("rounds", ROUNDS);
        figures.put("timed_calls", perRound * ROUNDS);
        figures.set("small_continuation", smallContinuation.toJson());
        figures.set("large_continuation", largeContinuation.toJson());
        figures.set("small_status", smallStatus.toJson());
        figures.set("large_status", largeStatus.toJson());
        String size = String.format("%,d", large.rows);
        List<Goal> goals = List.of(
                Goal.atMost("large_ledger_continuation", "continuation p50 with " + size + " ledger rows <= 1.2x with "
                        + String.format("%,d", small.rows), "p50 at " + size + " rows", largeContinuation.p50Ms(),
                        "p50 at " + String.format("%,d", small.rows) + " rows", smallContinuation.p50Ms(), "ms", 1.2)
                        .withRounds(continuationRounds),
                Goal.atMost("large_ledger_status", "status read-back p50 with " + size + " ledger rows <= 1.2x with "
                        + String.format("%,d", small.rows), "p50 at " + size + " rows", largeStatus.p50Ms(),
                        "p50 at " + String.format("%,d", small.rows) + " rows", smallStatus.p50Ms(), "ms", 1.2)
                        .withRounds(statusRounds));
        String method = "two warm guarded Java servers over stdio, one on a SQLite ledger of " + String.format("%,d", small.rows)
                + " operations and one of " + size + " (seeded as copies of one real committed operation: its issue, operation"
                + " row and events), " + ROUNDS + " interleaved rounds of " + perRound + " calls after " + plan.warmupCalls()
                + " warm-up calls; each call is round one + the continuation that commits a new operation, then the status"
                + " read-back of an operation drawn at random from the whole ledger; a goal's ratio is the median round's";
        return new BenchResult("large_ledger", "The ledger as it grows", method, figures, goals, List.of());
    }

    /** One warm guarded server on its own ledger, and the samples of its timed calls. */
    private static final class Ledger implements AutoCloseable {
        private final String name;
        private final ServerProcess server;
        private final Path database;
        private final Samples continuation = new Samples();
        private final Samples status = new Samples();
        private final SplittableRandom random = new SplittableRandom(20261206L);
        private int sent;
        private int rows;
        double lastContinuationP50;
        double lastStatusP50;

        private Ledger(String name, ServerProcess server, Path database) {
            this.name = name;
            this.server = server;
            this.database = database;
        }

        static Ledger start(BenchPlan plan, Path folder, String name) throws Exception {
            Files.createDirectories(folder);
            Path database = folder.resolve("store.sqlite3");
            Map<String, String> environment = new LinkedHashMap<>(WireSettings.matrix(database, "alice").environment());
            environment.putAll(ServerKind.JAVA.environment(plan.home(), JvmLifetime.LONG));
            ServerProcess server = ServerProcess.start(ServerKind.JAVA.command(plan.home(), JvmLifetime.LONG), environment,
                    folder.resolve("server.transcript.log"), folder.resolve("server.stderr.log"), ServerProcess.READ_TIMEOUT);
            Ledger ledger = new Ledger(name, server, database);
            // one real call makes the schema and the operation every seeded row copies
            ledger.fullCall();
            return ledger;
        }

        /**
         * Grows the ledger to {@code total} operations by copying its one real operation under the ids
         * {@code seed-<n>}, each with an issue of its own and the same events; the server is idle meanwhile.
         */
        void seed(int total) throws SQLException {
            int copies = total - 1;
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("PRAGMA busy_timeout = 30000");
                }
                connection.setAutoCommit(false);
                long firstIssue;
                try (Statement statement = connection.createStatement(); ResultSet max = statement.executeQuery("SELECT MAX(id) FROM issues")) {
                    max.next();
                    firstIssue = max.getLong(1) + 1;
                }
                String numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ";
                try (PreparedStatement issues = connection.prepareStatement(numbers
                        + "INSERT INTO issues(id, title, body) SELECT ? + i - 1, t.title, t.body FROM n, (SELECT title, body FROM issues ORDER BY id LIMIT 1) t")) {
                    issues.setInt(1, copies);
                    issues.setLong(2, firstIssue);
                    issues.executeUpdate();
                }
                try (PreparedStatement operations = connection.prepareStatement(numbers
                        + "INSERT INTO operations(operation_id, principal, backend, request_fingerprint, state, effect_id, result,"
                        + " issued_at, authority_expires_at, replay_expires_at, created_at, updated_at)"
                        + " SELECT 'seed-' || i, o.principal, o.backend, o.request_fingerprint, o.state, ? + i - 1, o.result,"
                        + " o.issued_at, o.authority_expires_at, o.replay_expires_at, o.created_at, o.updated_at"
                        + " FROM n, (SELECT * FROM operations ORDER BY rowid LIMIT 1) o")) {
                    operations.setInt(1, copies);
                    operations.setLong(2, firstIssue);
                    operations.executeUpdate();
                }
                try (PreparedStatement events = connection.prepareStatement(numbers
                        + "INSERT INTO operation_events(operation_id, step, outcome, error_type, created_at)"
                        + " SELECT 'seed-' || i, e.step, e.outcome, e.error_type, e.created_at FROM n, operation_events e"
                        + " WHERE e.operation_id = (SELECT operation_id FROM operations ORDER BY rowid LIMIT 1)")) {
                    events.setInt(1, copies);
                    events.executeUpdate();
                }
                connection.commit();
            }
            rows = total;
        }

        /** {@code n} calls, each a committing call and a status read-back; when timed, their samples are kept. */
        void calls(int n, boolean keep) throws Exception {
            long[] continuations = new long[n];
            long[] statuses = new long[n];
            for (int i = 0; i < n; i++) {
                continuations[i] = fullCall();
                long t0 = System.nanoTime();
                String operation = "seed-" + (1 + random.nextInt(rows - 1));
                Reply read = new Reply(server.callTool(ToolClient.STATUS,
                        JsonNodeFactory.instance.objectNode().put("operation_id", operation), null, null));
                statuses[i] = System.nanoTime() - t0;
                if (!read.isSuccess() || !read.raw().toString().contains("applied")) {
                    throw new IllegalStateException(name + ": the status of " + operation + " is not applied: " + read.raw());
                }
            }
            if (keep) {
                continuation.add(continuations);
                status.add(statuses);
                lastContinuationP50 = LatencyStats.of(continuations, 0).p50Ms();
                lastStatusP50 = LatencyStats.of(statuses, 0).p50Ms();
            }
        }

        /** Round one and the continuation that commits a new operation; the continuation's nanoseconds. */
        private long fullCall() throws Exception {
            ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("operation_id", "bench-" + name + "-" + sent++)
                    .put("title", "bench").put("mode", "atomic");
            Reply first = new Reply(server.callTool(ToolClient.CREATE, arguments, null, null));
            if (!first.inputRequired() || first.requestState() == null) {
                throw new IllegalStateException(name + ": round one did not ask for input: " + first.raw());
            }
            long t0 = System.nanoTime();
            Reply committed = new Reply(server.callTool(ToolClient.CREATE, arguments, ToolClient.accepted("alpha"), first.requestState()));
            long took = System.nanoTime() - t0;
            if (committed.refused() || committed.inputRequired()) {
                throw new IllegalStateException(name + ": the continuation did not commit: " + committed.raw());
            }
            return took;
        }

        /** Every committed call and every seeded row is one issue: nothing was lost or doubled. */
        void checkRows() throws Exception {
            long issues = StoreRows.count(database, "issues");
            long expected = (long) rows - 1 + sent;
            if (issues != expected) {
                throw new IllegalStateException(name + ": " + issues + " issue rows, expected " + expected);
            }
        }

        long fileBytes() {
            try {
                return Files.size(database);
            } catch (java.io.IOException e) {
                return 0;
            }
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    /** Nanosecond samples, appended round by round. */
    private static final class Samples {
        private long[] values = new long[0];

        void add(long[] more) {
            long[] joined = java.util.Arrays.copyOf(values, values.length + more.length);
            System.arraycopy(more, 0, joined, values.length, more.length);
            values = joined;
        }

        long[] toArray() {
            return values;
        }
    }
}
