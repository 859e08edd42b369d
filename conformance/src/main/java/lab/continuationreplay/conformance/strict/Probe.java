package lab.continuationreplay.conformance.strict;

/**
 * One request a check sent and what came back. The state itself is not kept: a server's state may carry its own
 * data, and strict.json is meant to be shared; the label says how it was made from the state round one gave.
 */
public record Probe(String label, Reply reply, boolean acceptable) {}
