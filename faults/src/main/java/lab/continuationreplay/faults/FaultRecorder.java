package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.history.FaultEvent.Kind;
import lab.continuationreplay.history.FaultEvent.Outcome;
import lab.continuationreplay.history.FaultHistory;
import lab.continuationreplay.history.Reply;

/**
 * Writes one experiment's part of the fault run's history: the ledgers it used, what it sent and what came back,
 * the kills and cuts, and the values its design fixes next to what it saw. It judges nothing: the faults checker
 * derives every verdict from these lines and the ledgers' rows.
 */
public final class FaultRecorder {
    private final Path out;
    private final long startedNanos;
    private final FaultHistory.Writer writer;
    private final String experiment;
    private final String transport;

    private FaultRecorder(Path out, long startedNanos, FaultHistory.Writer writer, String experiment, String transport) {
        this.out = out;
        this.startedNanos = startedNanos;
        this.writer = writer;
        this.experiment = experiment;
        this.transport = transport;
    }

    /** The recorder of a run whose history goes to {@code out/fault-history.jsonl}; name it per experiment with {@link #of}. */
    public static FaultRecorder start(Path out) {
        return new FaultRecorder(out, System.nanoTime(), new FaultHistory.Writer(out), "run", "none");
    }

    /** The same history, its next lines under {@code experiment} over {@code transport} ({@code stdio+http} for the scan). */
    public FaultRecorder of(String experimentName, String transportLabel) {
        return new FaultRecorder(out, startedNanos, writer, experimentName, transportLabel);
    }

    /**
     * How a JSON-RPC result answers a write: a tool error is a refusal; input_required, or a result without the guarded
     * tool's {@code replayed} member (a status, a list, another tool), wrote nothing; else the write ran.
     */
    public static Outcome outcomeOf(JsonNode result) {
        if (result.path("isError").asBoolean(false)) {
            return Outcome.REFUSED;
        }
        if ("input_required".equals(result.path("resultType").asText()) || !result.path("structuredContent").path("replayed").isBoolean()) {
            return Outcome.NO_WRITE;
        }
        return Outcome.SUCCESS;
    }

    /** A ledger the experiment uses; rows under {@code prefix} must have been sent (null: it shares the ledger). */
    public void ledger(String scope, Path database, String prefix) {
        write(scope, Kind.LEDGER, database, null, null, prefix, null, null);
    }

    public void sent(String scope, Path database, String operation) {
        write(scope, Kind.SENT, database, operation, null, null, null, null);
    }

    /** A request the design says must be refused: it may leave no row, whatever comes back. */
    public void sentMustRefuse(String scope, Path database, String operation) {
        write(scope, Kind.SENT, database, operation, null, FaultEvent.MUST_REFUSE, null, null);
    }

    /** An answer as {@code outcome} with its text (an error's code and message, say). */
    public void answered(String scope, Path database, String operation, Outcome outcome, String text) {
        write(scope, Kind.ANSWER, database, operation, outcome, null, null, text);
    }

    /**
     * An HTTP exchange's answer: {@code outcome} with the response's status (null: none came) and a short label
     * ({@code 400 -32602}, {@code 413}, {@code no response: reset}).
     */
    public void answeredOverHttp(String scope, Path database, String operation, Outcome outcome, Integer status, String label) {
        // a success's text is the result it reported, which the checker holds the row to: the label is no result
        write(scope, Kind.ANSWER, database, operation, outcome, null, null, outcome == Outcome.SUCCESS ? null : label, status);
    }

    /** A terminal reply: a success, or a refusal with its text. */
    public void answer(String scope, Path database, String operation, Reply reply) {
        if (reply.refused()) {
            refused(scope, database, operation, reply.refusalText());
        } else {
            // the result it reported, which the stored row must hold
            JsonNode result = reply.structured() == null ? null : reply.structured().path("result");
            write(scope, Kind.ANSWER, database, operation, Outcome.SUCCESS, null, null,
                    result != null && result.isTextual() ? result.asText() : null);
        }
    }

    public void succeeded(String scope, Path database, String operation) {
        write(scope, Kind.ANSWER, database, operation, Outcome.SUCCESS, null, null, null);
    }

    /** A success that reported {@code result}: the checker holds the stored row to it. */
    public void succeeded(String scope, Path database, String operation, String result) {
        write(scope, Kind.ANSWER, database, operation, Outcome.SUCCESS, null, null, result);
    }

    public void refused(String scope, Path database, String operation, String text) {
        write(scope, Kind.ANSWER, database, operation, Outcome.REFUSED, null, null, text == null ? "" : text);
    }

    /** No terminal reply: the connection or the process went away, or the lab stopped waiting. */
    public void lost(String scope, Path database, String operation, String why) {
        write(scope, Kind.ANSWER, database, operation, Outcome.LOST, null, null, why);
    }

    public void kill(String scope, String target, String how) {
        write(scope, Kind.KILL, null, null, null, target, null, how);
    }

    public void cut(String scope, String fault) {
        write(scope, Kind.CUT, null, null, null, fault, null, null);
    }

    /**
     * A value the experiment's design fixes ({@code expected}) next to the one the run saw; the checker calls any
     * difference a problem. Returns whether they agree, for an experiment whose next step depends on it.
     */
    public boolean expect(String scope, String what, Object expected, Object observed) {
        String wanted = String.valueOf(expected);
        String seen = String.valueOf(observed);
        write(scope, Kind.EXPECT, null, null, null, what, wanted, seen);
        return Objects.equals(wanted, seen);
    }

    private void write(String scope, Kind kind, Path database, String operation, Outcome outcome, String what, String expected,
            String observed) {
        write(scope, kind, database, operation, outcome, what, expected, observed, null);
    }

    private void write(String scope, Kind kind, Path database, String operation, Outcome outcome, String what, String expected,
            String observed, Integer status) {
        String ledger = database == null ? null : out.toAbsolutePath().normalize().relativize(database.toAbsolutePath().normalize())
                .toString().replace('\\', '/');
        try {
            writer.append(new FaultEvent((System.nanoTime() - startedNanos) / 1_000_000, experiment, transport, scope, kind, ledger,
                    operation, outcome, what, expected, observed, status));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the fault history", e);
        }
    }
}
