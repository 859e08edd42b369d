package lab.continuationreplay.faults.fuzz;

/**
 * One mutated frame: its kind and variant (for the figures), the bytes sent (without the newline), the operation id
 * it may touch, and whether it is certainly invalid ({@code mustFail}: no server may apply it).
 */
public record FuzzCase(String kind, String variant, byte[] bytes, String operationId, boolean mustFail) {}
