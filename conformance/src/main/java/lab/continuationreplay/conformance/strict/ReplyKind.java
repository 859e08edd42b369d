package lab.continuationreplay.conformance.strict;

/** What one request got back, as the strict checks judge it. */
public enum ReplyKind {
    /** A result whose resultType is {@code complete} (or absent, which means complete) and not {@code isError}. */
    COMPLETED("completed", false),
    /** A result with {@code resultType: input_required}: the server asks again. */
    INPUT_REQUIRED("input_required", false),
    /** A tool result with {@code isError: true}: one of the three refusals. */
    TOOL_ERROR("isError result", true),
    /** A JSON-RPC error response (whatever its HTTP status): one of the three refusals. */
    JSON_RPC_ERROR("JSON-RPC error", true),
    /** An HTTP 4xx without a JSON-RPC response in its body: one of the three refusals. */
    HTTP_4XX("HTTP 4xx", true),
    /** A result of another resultType (say, a task): neither completed nor refused. */
    OTHER_RESULT("other result", false),
    /** A response that is none of the above: a 5xx, a body that is no JSON-RPC response, an event stream without one. */
    BROKEN("no JSON-RPC answer", false),
    /** No HTTP response at all: the connection failed, closed or timed out. */
    NO_RESPONSE("no response", false);

    private final String words;
    private final boolean refusal;

    ReplyKind(String words, boolean refusal) {
        this.words = words;
        this.refusal = refusal;
    }

    public String words() {
        return words;
    }

    /** A JSON-RPC error, an HTTP 4xx or an {@code isError} result: the answers that refuse a state. */
    public boolean refusal() {
        return refusal;
    }

    /** The name in strict.json. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
