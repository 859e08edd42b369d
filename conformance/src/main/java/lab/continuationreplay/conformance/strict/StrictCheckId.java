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
    GET_AND_DELETE("get-and-delete-405", Level.SHOULD, Section.EARLIER_REVISIONS,
            "GET and DELETE on the MCP endpoint answer 405 Method Not Allowed"),
    SESSION_ID("session-id-ignored", Level.SHOULD, Section.EARLIER_REVISIONS,
            "a made-up Mcp-Session-Id on both rounds changes nothing, and no response mints or echoes one"),
    LAST_EVENT_ID("last-event-id-ignored", Level.SHOULD, Section.EARLIER_REVISIONS,
            "a Last-Event-ID on round one resumes nothing: a new state comes back, and it completes"),
    NEW_REQUEST("retry-is-a-new-request", Level.MUST, Section.SENDING_MESSAGES,
            "the same round-one request, id and body, POSTed again is answered in full again: a new state that completes"),
    CLOSED_STREAM("closed-stream-cancels", Level.MUST, Section.CANCELLATION,
            "a final round given up at once (its connection closed) commits at most once, and its retry gets the result"),
    STOPS_WORK("closed-stream-stops-work", Level.SHOULD, Section.CANCELLATION,
            "a final round whose connection closes while its commit waits on the held ledger commits nothing"),
    EXPIRED("expired-state", "a state older than the server's lifetime (--state-ttl) is refused"),
    OVERSIZED("oversized-state", "a 1 MiB state is refused, not crashed on"),
    STILL_SERVING("still-serving", "after all of the above the server still completes a normal round trip");

    /**
     * Where a check's rule comes from: the lab's own rule for a server that protects its state, or a requirement of the
     * 2026-07-28 specification at its level. A departure from a MUST fails the check; from a SHOULD it is reported.
     */
    public enum Level {
        LAB,
        MUST,
        SHOULD
    }

    /** The page the transport checks' sections are on, in the specification's own repository. */
    public static final String SPEC_PAGE = "modelcontextprotocol/modelcontextprotocol docs/specification/2026-07-28/basic/transports/streamable-http.mdx";

    /** The sections of the specification's {@code basic/transports/streamable-http.mdx} (2026-07-28) the checks cite. */
    public enum Section {
        NONE(""),
        SENDING_MESSAGES("Sending Messages"),
        CANCELLATION("Cancellation"),
        EARLIER_REVISIONS("Backward Compatibility, Earlier Streamable HTTP Revisions");

        private final String title;

        Section(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    private final String id;
    private final String meaning;
    private final Level level;
    private final Section section;

    StrictCheckId(String id, String meaning) {
        this(id, Level.LAB, Section.NONE, meaning);
    }

    StrictCheckId(String id, Level level, Section section, String meaning) {
        this.id = id;
        this.meaning = meaning;
        this.level = level;
        this.section = section;
    }

    public Level level() {
        return level;
    }

    public Section section() {
        return section;
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
