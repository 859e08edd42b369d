package lab.continuationreplay.probe;

/**
 * Bad input to the probe: an option, a target that cannot be reached or does not speak 2026-07-28, a tool that does
 * not exist or completes in one round, an observer that does not count. One line naming the cause and the option to
 * fix; {@code lab probe} exits 2 on it, before or instead of any verdict.
 */
public final class ProbeInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProbeInputException(String message) {
        super(message);
    }

    public ProbeInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
