package lab.continuationreplay.cases;

/**
 * What a script may do: start named server processes on the case's one ledger and end them. The runner implements it
 * with real processes over real stdio and keeps every byte as history; a script never sees a verdict.
 */
public interface CaseSteps {
    /** Starts process {@code name} of the SDK under test and opens its connection. */
    default CaseServer spawn(String name, ServerSetup setup) throws Exception {
        return spawn(name, setup, ServerChoice.UNDER_TEST);
    }

    CaseServer spawn(String name, ServerSetup setup, ServerChoice server) throws Exception;

    /** Ends the process now (closes its input, waits, kills what lingers): the next one may need the file alone. */
    void close(CaseServer server);
}
