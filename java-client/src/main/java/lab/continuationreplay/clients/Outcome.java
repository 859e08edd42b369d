package lab.continuationreplay.clients;

/** What a step came to, in the words of {@code client-record/1}. */
public enum Outcome {
    CONNECTED("connected"),
    CLOSED("closed"),
    LISTED("listed"),
    /** A complete result whose {@code isError} is not true. */
    RESULT("result"),
    /** A complete result with {@code isError: true}. */
    TOOL_ERROR("tool_error"),
    /** The intermediate answer of a manual round. */
    INPUT_REQUIRED("input_required"),
    THREW("threw");

    private final String wireName;

    Outcome(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
