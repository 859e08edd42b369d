package lab.continuationreplay.faults.token;

/**
 * The bearer attacks on an HTTP server, each with what it must get. Every attack but the status probes carries a
 * continuation of a fresh state of alice, so a wrongly accepted one would leave a row.
 */
enum BearerAttack {
    NO_AUTHORIZATION(Expect.UNAUTHORIZED, "no Authorization header"),
    UNKNOWN_TOKEN(Expect.UNAUTHORIZED, "a well-formed token no principal has"),
    EMPTY_BEARER(Expect.UNAUTHORIZED, "Bearer with an empty credential"),
    TOKEN_PREFIX(Expect.UNAUTHORIZED, "alice's token without its last character"),
    TOKEN_EXTENDED(Expect.UNAUTHORIZED, "alice's token with one character more"),
    BASIC_SCHEME(Expect.UNAUTHORIZED, "Basic with alice:token in base64"),
    LOWERCASE_SCHEME(Expect.RECORDED, "'bearer' in lower case with alice's valid token (RFC 9110: schemes are case-insensitive)"),
    BOB_CONTINUES_ALICE(Expect.STATE_REFUSAL, "bob's token with alice's state and arguments"),
    ALICE_CONTINUES_BOB(Expect.STATE_REFUSAL, "alice's token with bob's state and arguments"),
    BOB_READS_ALICE_STATUS(Expect.NOT_APPLIED, "bob asks get_operation_status of an operation alice applied"),
    TWO_AUTHORIZATIONS(Expect.RECORDED, "alice's and then bob's Authorization header on one request"),
    FOREIGN_HOST(Expect.FORBIDDEN, "Host: a name that is not loopback"),
    FOREIGN_ORIGIN(Expect.FORBIDDEN, "Origin: a site that is not loopback"),
    NULL_ORIGIN(Expect.RECORDED, "Origin: null (a sandboxed page)");

    /** What must come back. */
    enum Expect {
        /** 401 with {@code WWW-Authenticate: Bearer ...}, no effect. */
        UNAUTHORIZED,
        /** 403, no effect. */
        FORBIDDEN,
        /** {@code -32602} with {@code data.reason = invalid_request_state}, no effect. */
        STATE_REFUSAL,
        /** A status answer that does not show alice's operation as applied to bob. */
        NOT_APPLIED,
        /** Either answer is defensible; what each server does is recorded, and an effect must match a success. */
        RECORDED
    }

    private final Expect expect;
    private final String description;

    BearerAttack(Expect expect, String description) {
        this.expect = expect;
        this.description = description;
    }

    Expect expect() {
        return expect;
    }

    String description() {
        return description;
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
