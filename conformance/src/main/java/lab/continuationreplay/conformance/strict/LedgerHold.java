package lab.continuationreplay.conformance.strict;

/**
 * Makes the server's commits wait: {@link #hold()} takes its ledger's write lock, and closing what it returns lets
 * the lock go. Only whoever owns the server's ledger can give one: {@code lab conformance} does, for the servers it
 * starts; {@code --strict --url} cannot, so the check that needs it does not run there.
 */
@FunctionalInterface
public interface LedgerHold {
    AutoCloseable hold() throws Exception;
}
