package lab.continuationreplay.store.ledger;

/** One step event of a multi-step operation ({@code operation_events}). */
public record OperationEvent(long id, String operationId, String step, String outcome, String errorType) {}
