package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import lab.continuationreplay.vectors.ExactJson;

/**
 * One line of a fault run's history: what the lab did to a server or its ledger, or what came back, with the time
 * (milliseconds since the run began) and where it happened (experiment, transport, scope). The faults checker reads
 * nothing else besides the ledgers the history names. Fields a kind does not use are null.
 *
 * @param ledger   the ledger this event concerns, relative to the run's folder (a SQLite file, or the key whose
 *                 {@code <name>.rows.json} a PostgreSQL ledger left)
 * @param what     a LEDGER's operation-id prefix (rows under it must have been sent); {@code must-refuse} on a SENT
 *                 the design says must be refused (it may leave no row); a KILL's or CUT's target; an EXPECT's subject
 * @param expected an EXPECT's value by design
 * @param observed an EXPECT's value as the run saw it; an ANSWER's refusal text (or a success's reported result)
 * @param status   an ANSWER's HTTP status (null over stdio or without a response)
 */
public record FaultEvent(long t, String experiment, String transport, String scope, Kind kind, String ledger,
        String operation, Outcome outcome, String what, String expected, String observed, Integer status) {

    /** What happened. */
    public enum Kind {
        /** A ledger the experiment used; the checker counts its rows. */
        LEDGER,
        /** A write (round one and its continuation) sent for an operation id. */
        SENT,
        /** What came back for an operation: a success, a refusal with its text, or nothing. */
        ANSWER,
        /** A process or the database killed, or a process that exited on its own. */
        KILL,
        /** A lab fault switched on (a cut point, a full disk, a held lock …). */
        CUT,
        /** A value the experiment's design fixes, next to the value the run saw. */
        EXPECT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How an operation's write was answered. */
    public enum Outcome {
        /** The write ran: a tool result that is not an error. */
        SUCCESS,
        /** An error answer: JSON-RPC, a tool error, or an HTTP error status. */
        REFUSED,
        /**
         * Answered, with nothing to write: round one's input_required, or a call that only reads (a status, a list,
         * another tool a fuzzed request named).
         */
        NO_WRITE,
        /** No reply, as a notification or a frame the server may drop gets: nothing ran. */
        IGNORED,
        /** No terminal reply: the connection or the process went away, or the lab stopped waiting. */
        LOST;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public FaultEvent {
        java.util.Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.SENT || kind == Kind.ANSWER) && (ledger == null || operation == null)) {
            throw new IllegalArgumentException(kind.wire() + " needs a ledger and an operation");
        }
        if (kind == Kind.ANSWER && outcome == null) {
            throw new IllegalArgumentException("answer needs an outcome");
        }
        if (kind == Kind.LEDGER && ledger == null) {
            throw new IllegalArgumentException("ledger needs its path");
        }
        if (kind == Kind.EXPECT && (what == null || expected == null)) {
            throw new IllegalArgumentException("expect needs what and expected");
        }
    }

    /** True for a SENT whose request the design says must be refused. */
    public boolean mustRefuse() {
        return kind == Kind.SENT && MUST_REFUSE.equals(what);
    }

    public static final String MUST_REFUSE = "must-refuse";

    /** experiment and transport, e.g. {@code cut-points (http)}: one verdict of the run. */
    public String unit() {
        return experiment + " (" + transport + ")";
    }

    public ObjectNode toJson() {
        ObjectNode json = Format.FAULT_EVENT.document();
        json.put("t", t).put("experiment", experiment).put("transport", transport).put("scope", scope).put("kind", kind.wire());
        putIf(json, "ledger", ledger);
        putIf(json, "operation", operation);
        putIf(json, "outcome", outcome == null ? null : outcome.wire());
        putIf(json, "what", what);
        putIf(json, "expected", expected);
        putIf(json, "observed", observed);
        if (status != null) {
            json.put("status", status);
        }
        return json;
    }

    /** One history line, its format checked; a kind or outcome the lab does not write is an error. */
    public static FaultEvent parse(String line, String where) throws FormatException {
        ObjectNode json = Format.FAULT_EVENT.read(line, where);
        try {
            return new FaultEvent(json.path("t").asLong(), text(json, "experiment"), text(json, "transport"), text(json, "scope"),
                    Kind.valueOf(json.path("kind").asText().toUpperCase(Locale.ROOT)), text(json, "ledger"), text(json, "operation"),
                    json.hasNonNull("outcome") ? Outcome.valueOf(json.path("outcome").asText().toUpperCase(Locale.ROOT)) : null,
                    text(json, "what"), text(json, "expected"), text(json, "observed"),
                    json.hasNonNull("status") ? json.path("status").asInt() : null);
        } catch (IllegalArgumentException e) {
            throw new FormatException(where + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode json, String member) {
        return json.hasNonNull(member) ? json.path(member).asText() : null;
    }

    private static void putIf(ObjectNode json, String member, String value) {
        if (value != null) {
            json.put(member, value);
        }
    }

    @Override
    public String toString() {
        return ExactJson.mapper().valueToTree(toJson()).toString();
    }
}
