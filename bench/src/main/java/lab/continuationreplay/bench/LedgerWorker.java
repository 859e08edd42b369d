package lab.continuationreplay.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.ApplyResult;
import lab.continuationreplay.store.ledger.Deadlines;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerLocation;

/**
 * A long-lived child process of benchmark 2 (and of its PostgreSQL form): {@code LedgerWorker DB NAME}. Opens the
 * ledger at {@code DB} ({@code postgres}: the one {@code WIRE_LEDGER_URL} names) and, on the same file or schema, a
 * second connection with the ledger's own durability settings ({@link IssueLedger#connect}) for the bare
 * commit loop; prints {@code ready}; then answers one line per command on stdin:
 * <ul>
 *   <li>{@code bare N}: N bare commits, each one row inserted into {@value #BARE_TABLE} in its own
 *       {@code BEGIN IMMEDIATE … COMMIT}; answers {@code done <nanos>};
 *   <li>{@code shaped N}: N transactions of the shaped floor ({@link BareCommits#shapedNanos}): an effect row and
 *       an operation row each; answers {@code done <nanos>};
 *   <li>{@code ledger N}: N distinct atomic operations ({@code NAME-<sequence>}) through
 *       {@link IssueLedger#applyIssueOnce}; answers {@code done <nanos>};
 *   <li>{@code race ID}: applies operation {@code ID} once; answers {@code answer <replayed> <effect id>};
 *   <li>{@code quit} (or the end of stdin): exit 0.
 * </ul>
 * Anything else, or a failure: a line on stderr and exit 1.
 */
public final class LedgerWorker {
    static final String FINGERPRINT = "0".repeat(63) + "1";
    /** The bare loop's table, in the ledger's file (not part of the ledger's schema; only benchmark files have it). */
    static final String BARE_TABLE = BareCommits.TABLE;
    /** In place of a file: the PostgreSQL ledger named by the worker's environment. */
    static final String POSTGRES = "postgres";

    private final String name;
    private final IssueLedger ledger;
    private final BareCommits bare;
    private final Deadlines deadlines;
    private long operations;

    /** How many times one operation is sent before its lost race ends the worker. */
    static final int CLIENT_ATTEMPTS = 10;
    /** Resends after the ledger gave up on a lost race (see {@link #apply}). */
    private long clientRetries;

    private LedgerWorker(String name, IssueLedger ledger, BareCommits bare) {
        this.name = name;
        this.ledger = ledger;
        this.bare = bare;
        long t0 = WireSettings.T0;
        this.deadlines = Deadlines.of(t0, t0 + 300, t0 + 360);
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        LedgerLocation location;
        try {
            // "postgres": the ledger of this process's environment (WIRE_LEDGER_URL and its credentials), as a server finds it
            location = args[0].equals(POSTGRES) ? TrustedEnvironment.fromProcess().ledger()
                    : new LedgerLocation.SqliteFile(Path.of(args[0]));
            if (args[0].equals(POSTGRES) && !(location instanceof LedgerLocation.Postgres)) {
                throw new IllegalArgumentException(TrustedEnvironment.LEDGER_URL + " is not set");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("ledger worker " + args[1] + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        try (IssueLedger ledger = IssueLedger.open(location, WireSettings.BACKEND);
                BareCommits bare = location instanceof LedgerLocation.Postgres postgres
                        ? BareCommits.onPostgres(postgres, args[1] + "-bare")
                        : new BareCommits(Path.of(args[0]), args[1] + "-bare")) {
            LedgerWorker worker = new LedgerWorker(args[1], ledger, bare);
            out.println("ready");
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
                out.println(worker.answer(line));
                out.flush();
            }
        } catch (Exception e) {
            System.err.println("ledger worker " + args[1] + ": " + e);
            System.exit(1);
        }
    }

    private String answer(String command) throws SQLException {
        String[] words = command.split(" ");
        if (words.length != 2) {
            throw new IllegalArgumentException("unknown command: " + command);
        }
        switch (words[0]) {
            case "bare" -> {
                return "done " + bare.nanos(Integer.parseInt(words[1]));
            }
            case "shaped" -> {
                return "done " + bare.shapedNanos(Integer.parseInt(words[1]));
            }
            case "ledger" -> {
                int n = Integer.parseInt(words[1]);
                long start = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    apply(name + "-" + operations++);
                }
                return "done " + (System.nanoTime() - start);
            }
            case "retries" -> {
                return "retries " + clientRetries;
            }
            case "race" -> {
                ApplyResult result = apply(words[1]);
                return "answer " + result.replayed() + " " + result.effectId();
            }
            default -> throw new IllegalArgumentException("unknown command: " + command);
        }
    }

    /**
     * One apply, sent again with the same operation id when the ledger gave up after losing {@code MAX_RUNS} races
     * (PostgreSQL's serialisation failure, SQLState 40001 or 40P01), as a client does with a clear error that
     * committed nothing: apply-once makes the resend safe. On PostgreSQL, 8 processes applying back to back can starve
     * one of them (each of its runs overlaps the others' and loses again), which ended the whole benchmark before;
     * the resends are counted ({@code retries}) and reported.
     */
    private ApplyResult apply(String operationId) throws SQLException {
        OperationIdentity identity = new OperationIdentity(operationId, "alice", WireSettings.BACKEND);
        for (int attempt = 1; ; attempt++) {
            try {
                return ledger.applyIssueOnce(ApplyRequest.at(identity, FINGERPRINT, "bench", "alpha", deadlines, WireSettings.T0),
                        FaultHook.NONE);
            } catch (SQLException e) {
                if (attempt >= CLIENT_ATTEMPTS || !lostARace(e)) {
                    throw e;
                }
                clientRetries++;
            }
        }
    }

    static boolean lostARace(SQLException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && ("40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }
}
