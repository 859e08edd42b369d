package lab.continuationreplay.faults.crash;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.faults.FaultLedger;
import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.history.Reply;

/**
 * One storage fault played against a running server, on SQLite or PostgreSQL: a warm commit, round one of the next
 * operation, the fault on, its continuation (must be refused with a storage error), the fault off, and the same
 * continuation again (must create the one effect). It records what happened; the faults checker judges it.
 */
final class StorageScenario {
    /** Switches one fault on and off. */
    interface Fault {
        void on() throws Exception;

        void off() throws Exception;

        /** One step of switching a fault, which may fail as the file system or the database does. */
        interface Step {
            void run() throws Exception;
        }

        static Fault of(Step on, Step off) {
            return new Fault() {
                @Override
                public void on() throws Exception {
                    on.run();
                }

                @Override
                public void off() throws Exception {
                    off.run();
                }
            };
        }
    }

    private final FaultRecorder history;
    private final String scope;
    private final FaultLedger ledger;
    private final ToolClient client;
    private final Path live;
    private final Path database;

    /**
     * @param live the ledger the server writes, read here between steps; {@code kept}: where it lies when the run
     *             ends (the same, except under a tmpfs that is unmounted), the path the history names
     */
    StorageScenario(FaultRecorder history, String scope, FaultLedger ledger, ToolClient client, Path live, Path kept) {
        this.history = history;
        this.scope = scope;
        this.ledger = ledger;
        this.client = client;
        this.live = live;
        this.database = kept;
        history.ledger(scope, kept, null);
    }

    /** The warm commit, round one of the next operation, then {@link #underFault}. Returns what happened, in words. */
    String play(Fault fault) throws Exception {
        String tag = scope.replaceAll("[^a-z]+", "-");
        ObjectNode warm = ToolClient.arguments(tag + "-before", "fault " + tag + "-before", "atomic");
        history.sent(scope, database, tag + "-before");
        history.answer(scope, database, tag + "-before", client.commit(warm, client.roundOne(warm), "before the fault"));
        long issuesBefore = ledger.count(live, "issues");
        ObjectNode arguments = ToolClient.arguments(tag + "-during", "fault " + tag + "-during", "atomic");
        String state = client.roundOne(arguments);
        fault.on();
        return underFault(issuesBefore, fault, arguments, state);
    }

    /** The continuation while the fault is on, the rows it left, then the same continuation once the fault is off. */
    String underFault(long issuesBefore, Fault fault, ObjectNode arguments, String state) throws Exception {
        String operation = arguments.path("operation_id").asText();
        history.cut(scope, scope);
        history.sent(scope, database, operation);
        long started = System.nanoTime();
        String refusal;
        try {
            Reply reply = client.commit(arguments, state, "during the fault");
            history.answer(scope, database, operation, reply);
            refusal = reply.refused() ? reply.refusalText() : null;
            history.expect(scope, "the write during the fault", "refused as a storage error",
                    refusal == null ? "succeeded: " + reply.raw() : isStorageError(reply) ? "refused as a storage error" : "refused: " + refusal);
        } catch (TransportFailure e) {
            refusal = null;
            history.lost(scope, database, operation, e.getMessage());
            history.expect(scope, "the write during the fault", "refused as a storage error", "no answer on the wire: " + e.getMessage());
        } finally {
            fault.off();
        }
        long waitedMs = (System.nanoTime() - started) / 1_000_000;
        if (refusal != null) {
            // the moment between the refusal and the retry: the final rows cannot show it
            long issuesAfter = ledger.count(live, "issues");
            long rows = ledger.rows(live, "SELECT 1 FROM operations WHERE operation_id = ?", operation).size();
            history.expect(scope, "rows left by the refused write", "issues " + issuesBefore + ", ledger rows 0",
                    "issues " + issuesAfter + ", ledger rows " + rows);
        }
        String resumed;
        try {
            Reply again = client.commit(arguments, state, "during the fault");
            history.answer(scope, database, operation, again);
            resumed = outcome(again);
        } catch (TransportFailure e) {
            history.lost(scope, database, operation, e.getMessage());
            resumed = "no answer: " + e.getMessage();
        }
        history.expect(scope, "the same continuation after the fault cleared", refusal == null ? "replayed" : "created", resumed);
        return (refusal == null ? "NOT refused" : "refused \"" + refusal + "\"") + " after " + waitedMs + " ms; no rows; then "
                + resumed;
    }

    static String outcome(Reply reply) {
        if (reply.refused()) {
            return "refused: " + reply.refusalText();
        }
        return reply.structured().path("replayed").asBoolean() ? "replayed" : "created";
    }

    /** Java answers a ledger failure as JSON-RPC -32603 "ledger unavailable"; the fixture as the bridge's storage_failure. */
    static boolean isStorageError(Reply reply) {
        if (reply.raw().has("error")) {
            return reply.raw().path("error").path("code").asInt() == -32603
                    && "ledger unavailable".equals(reply.raw().path("error").path("message").asText());
        }
        // The bridge answers an SQLite error as storage_failure; a bridge child that cannot open the ledger at all exits,
        // and the fixture reports the child's status and its last stderr line.
        String text = reply.refusalText();
        return text.startsWith("bridge_error: storage_failure")
                || text.startsWith("bridge machinery failure: ") && text.contains("cannot open the ledger");
    }
}
