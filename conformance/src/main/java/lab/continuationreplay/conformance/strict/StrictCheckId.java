package lab.continuationreplay.conformance.strict;

/** The strict checks, in the order they run and are printed. */
public enum StrictCheckId {
    ROUND_TRIP("exact-state-round-trip",
            "the continuation with the exact state and the responses completes, with \"state-ok\" in its text"),
    MISSING_STATE("continuation-without-state",
            "a continuation that leaves its state out is not completed (input_required again, or a refusal)"),
    BIT_FLIPS("bit-flipped-state", "a state with one bit flipped, in every segment and at several places, is refused"),
    TRUNCATED("truncated-state", "a prefix of the state is refused"),
    RE_ENCODED("re-encoded-state",
            "the state's bytes in another base64 spelling (other alphabet, padding added or removed) are refused"),
    OTHER_TOOL("state-of-another-tool", "a state minted by another fixture tool is refused, in both directions"),
    OTHER_ARGUMENTS("state-with-other-arguments", "a continuation whose arguments differ from round one's is refused"),
    OTHER_PRINCIPAL("state-of-another-principal", "a state minted for one bearer token is refused with another"),
    NON_STRING("non-string-state", "a requestState that is a number, boolean, null, object or array is refused"),
    REPLAY("replayed-state", "the completed continuation sent again gives the same content or a refusal"),
    EXPIRED("expired-state", "a state older than the server's lifetime (--state-ttl) is refused"),
    OVERSIZED("oversized-state", "a 1 MiB state is refused, not crashed on"),
    STILL_SERVING("still-serving", "after all of the above the server still completes a normal round trip");

    private final String id;
    private final String meaning;

    StrictCheckId(String id, String meaning) {
        this.id = id;
        this.meaning = meaning;
    }

    /** The name in the output and in strict.json. */
    public String id() {
        return id;
    }

    /** What passing the check means, in one sentence. */
    public String meaning() {
        return meaning;
    }

    public static StrictCheckId byId(String id) {
        for (StrictCheckId check : values()) {
            if (check.id.equals(id)) {
                return check;
            }
        }
        throw new IllegalArgumentException("no strict check named " + id);
    }
}
