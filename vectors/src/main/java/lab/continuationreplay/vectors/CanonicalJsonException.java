package lab.continuationreplay.vectors;

/** A value that has no canonical JSON text, or a request that cannot be fingerprinted; the message names the JSON path. */
public final class CanonicalJsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public CanonicalJsonException(String message) {
        super(message);
    }
}
