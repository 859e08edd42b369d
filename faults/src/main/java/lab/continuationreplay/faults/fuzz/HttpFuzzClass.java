package lab.continuationreplay.faults.fuzz;

import java.util.Locale;

/**
 * The classes of bent HTTP requests the HTTP fuzzer sends. {@link #expect()} says whether a server must refuse every
 * request of the class or may run it (a valid chunked body, a charset parameter, a second copy of a header); whether
 * the exchange may end without a response is decided per case (a body that never arrives can only time out).
 */
public enum HttpFuzzClass {
    PROTOCOL_VERSION_MISSING(Expect.REFUSED),
    PROTOCOL_VERSION_DUPLICATED(Expect.EITHER),
    PROTOCOL_VERSION_GARBAGE(Expect.REFUSED),
    MCP_METHOD_MISSING(Expect.REFUSED),
    MCP_METHOD_DUPLICATED(Expect.EITHER),
    MCP_METHOD_GARBAGE(Expect.EITHER),
    MCP_NAME_MISSING(Expect.REFUSED),
    MCP_NAME_DUPLICATED(Expect.EITHER),
    MCP_NAME_OTHER_TOOL(Expect.EITHER),
    CONTENT_TYPE_MISSING(Expect.REFUSED),
    CONTENT_TYPE_WRONG(Expect.REFUSED),
    CONTENT_TYPE_PARAMETERS(Expect.EITHER),
    HTTP_METHOD(Expect.REFUSED),
    OTHER_PATH(Expect.EITHER),
    CHUNKED_VALID(Expect.EITHER),
    CHUNKED_TRUNCATED(Expect.REFUSED),
    CHUNKED_BAD_SIZE(Expect.REFUSED),
    CONTENT_LENGTH_SHORTER(Expect.REFUSED),
    CONTENT_LENGTH_LONGER(Expect.REFUSED),
    CONTENT_LENGTH_INVALID(Expect.EITHER),
    OVERSIZE_BODY(Expect.REFUSED),
    /** Both servers apply the stdio frame rules to HTTP bodies, strict UTF-8 first (docs/http.md). */
    INVALID_UTF8(Expect.REFUSED),
    NOT_JSON(Expect.REFUSED),
    BATCH(Expect.REFUSED),
    HEADER_INJECTION(Expect.EITHER),
    HUGE_HEADER(Expect.REFUSED);

    /** What a server must do with a request of the class. */
    public enum Expect {
        /** Refuse it: a success is a finding (and an effect from it a violated invariant). */
        REFUSED,
        /** Refuse or run it; what each SDK does is recorded, and an effect must match a success. */
        EITHER
    }

    private final Expect expect;

    HttpFuzzClass(Expect expect) {
        this.expect = expect;
    }

    public Expect expect() {
        return expect;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
