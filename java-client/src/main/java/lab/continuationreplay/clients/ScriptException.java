package lab.continuationreplay.clients;

/**
 * A script the driver will not run; the message is the one stderr line (exit status 2), worded as every driver words
 * it (vectors/rules/client-script.json).
 */
public final class ScriptException extends Exception {
    private static final long serialVersionUID = 1L;

    public static final String PREFIX = "script error: ";

    /** {@code where} is "" for the document's own members, else "servers.web: ", "step 3 (call_once): " and so on. */
    public ScriptException(String where, String problem) {
        super(PREFIX + where + problem);
    }
}
