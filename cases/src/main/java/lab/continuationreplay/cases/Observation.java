package lab.continuationreplay.cases;

/**
 * One member of a case's semantic outcome, said as what to look at, not as code: the checker computes each kind from
 * the history alone (one arm per kind). {@code index} counts continuations (tools/call with inputResponses) in the
 * order they were sent; {@code operand} is an operation id where a kind needs one.
 */
public record Observation(Kind kind, int index, String operand) {

    public enum Kind {
        /** The {@code replayed} flags of the successful continuation replies, sorted. */
        REPLAYED_FLAGS,
        /** Whether every successful continuation reply carries the same result. */
        SAME_RESULT,
        /** Rows in the ledger's operations table. */
        OPERATION_ROWS,
        /** How many processes sent continuations. */
        CONTINUATION_PROCESSES,
        /** Whether more than one continuation was sent (after a lost reply: was the write sent again?). */
        REDISPATCHED,
        /** Continuation {@code index}: its refusal mechanism, {@code applied}/{@code replayed}, or silence. */
        MECHANISM,
        /**
         * Continuation {@code index}: {@code clear_error} when it was refused with an error no case names (the
         * server's own failure, e.g. its ledger out of reach), else as {@link #MECHANISM}.
         */
        CLEAR_ERROR,
        /** Continuation {@code index}: {@code replayed} when it answered with replayed true, else {@code not_replayed}. */
        EXPLICIT_REPLAY,
        /** Continuation {@code index}: the {@code state} of its structured result. */
        CONTINUATION_STATE,
        /** Whether any continuation from {@code index} on applied a new effect. */
        FRESH_WRITE,
        /** {@code unknown} when the first continuation got no reply, else {@code answered}. */
        TRANSPORT,
        /** The exit status of the first process. */
        CRASH_EXIT,
        /** The single status read-back, judged by the recovery consumer for the case's identity: the effect. */
        RECONCILED,
        /** The same read-back: what the consumer does next. */
        CONSUMER_ACTION,
        /** The single status read-back's {@code state} member as sent, whoever asked. */
        STATUS_STATE,
        /** Whether the single status read-back is refused when read as the case's own identity. */
        IDENTITY_REFUSED,
        /** Whether a first round for operation {@code operand} answered {@code input_required}. */
        FIRST_ROUND,
        /** Rows in the watchers table. */
        WATCHER_ROWS,
        /** Compensation rows whose outcome is a failure. */
        FAILED_COMPENSATIONS,
        /** Rows in the operation events table. */
        STEP_EVENTS
    }

    public static Observation of(Kind kind) {
        return new Observation(kind, 0, null);
    }

    public static Observation of(Kind kind, int index) {
        return new Observation(kind, index, null);
    }

    public static Observation firstRound(String operationId) {
        return new Observation(Kind.FIRST_ROUND, 0, operationId);
    }
}
