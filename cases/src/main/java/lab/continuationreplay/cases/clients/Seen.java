package lab.continuationreplay.cases.clients;

/**
 * What an application sees from one client call, in words every client and server share. The checker reduces a
 * client record to one of these; each client case expects one per call step. How each client shows it (an exception
 * type, an {@code isError} result) is recorded beside it and compared across the cells, never folded away.
 *
 * @param kind      what came back
 * @param detail    the refusal mechanism ({@code operation_conflict}, ...) for a refusal, the effect state
 *                  ({@code applied}, {@code partial}, {@code unknown}) for a result or a status, else null
 */
public record Seen(Kind kind, String detail) {
    public enum Kind {
        /** A manual round's intermediate answer. */
        INPUT_REQUIRED,
        /** A complete tool result, first applied: {@code detail} is its state. */
        RESULT,
        /** A complete tool result that replays the stored one: {@code detail} is its state. */
        REPLAYED,
        /** A status read-back: {@code detail} is the state it reports. */
        STATUS,
        /** A refusal by the guard, as the server shapes it (a thrown JSON-RPC error or an {@code isError} result). */
        REFUSED,
        /** The SDK refusing the request state: JSON-RPC -32602, data.reason invalid_request_state. */
        STATE_REFUSED,
        /** The connection ended before the reply: the outcome is unknown to the application. */
        LOST,
        /** The reply did not come within the client's timeout while the server stayed up: unknown too. */
        TIMEOUT,
        /** A connection opened. */
        CONNECTED,
        /**
         * A thrown JSON-RPC error that is no refusal by the guard or of the state: {@code detail} is its code. The
         * client may have raised it itself (e.g. a validation of its own), or the server's SDK (e.g. a version refused).
         */
        ERROR,
        /** Anything else: {@code detail} says what. */
        OTHER
    }

    public static Seen of(Kind kind) {
        return new Seen(kind, null);
    }

    public static Seen of(Kind kind, String detail) {
        return new Seen(kind, detail);
    }

    /** {@code refused operation_conflict}, {@code result applied}, {@code lost}: how it reads in tables. */
    @Override
    public String toString() {
        String name = kind.name().toLowerCase(java.util.Locale.ROOT);
        return detail == null ? name : name + " " + detail;
    }
}
