package lab.continuationreplay.clients;

/** A script the driver will not run; the message is the one stderr line (exit status 2). */
public final class ScriptException extends Exception {
    private static final long serialVersionUID = 1L;

    public ScriptException(String where, String problem) {
        super("client-script: " + where + ": " + problem);
    }

    public static ScriptException atStep(StepId id, String problem) {
        return new ScriptException("step " + id, problem);
    }
}
