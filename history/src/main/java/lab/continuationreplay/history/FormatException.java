package lab.continuationreplay.history;

/**
 * A document the lab cannot read as the format it expects: written before format versions, by another version, or
 * not JSON at all. Checked, so every reader decides what a refusal means for it (the checker turns it into a problem
 * line; nothing lets it surface as a stack trace).
 */
public final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public FormatException(String message) {
        super(message);
    }
}
