package lab.continuationreplay.cases.clients;

import static lab.continuationreplay.cases.clients.Seen.Kind.INPUT_REQUIRED;
import static lab.continuationreplay.cases.clients.Seen.Kind.LOST;
import static lab.continuationreplay.cases.clients.Seen.Kind.REFUSED;
import static lab.continuationreplay.cases.clients.Seen.Kind.REPLAYED;
import static lab.continuationreplay.cases.clients.Seen.Kind.RESULT;
import static lab.continuationreplay.cases.clients.Seen.Kind.STATE_REFUSED;
import static lab.continuationreplay.cases.clients.Seen.Kind.STATUS;
import static lab.continuationreplay.cases.clients.Seen.Kind.TIMEOUT;

import java.util.Arrays;
import java.util.List;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.ServerSetup;

/**
 * The client cases, each with what the application must see, written from the seed's frozen outcomes and the probe
 * facts about the two clients (docs/clients.md) before any run judged them. The same expectations hold for all four
 * client x server cells unless a case names a cell that differs, and why.
 */
public final class ClientCases {
    private static final String ALPHA = CaseSpec.BODY;
    private static final Seen ROUND_ONE = Seen.of(INPUT_REQUIRED);
    private static final Seen APPLIED = Seen.of(RESULT, "applied");
    private static final Seen REPLAY = Seen.of(REPLAYED, "applied");
    private static final String OUTPUT_SCHEMA_CHECK = "the TypeScript client checks the tool's output schema against the"
            + " input_required result (docs/findings/ts-client-output-schema-on-input-required.md); every server declares"
            + " the output schemas of vectors/rules/tools.json";

    private ClientCases() {}

    public static ClientCase spec(ClientCaseId id) {
        ServerSetup alice = ServerSetup.alice();
        ServerSetup crashing = alice.with(ServerSetup.Fault.DROP_AFTER_COMMIT);
        ClientCase.Builder c = ClientCase.of(id);
        return switch (id) {
            case IDENTICAL_RETRY -> identicalRetry(c, alice);
            case NEVER_ADMITTED -> neverAdmitted(c, alice);
            case LOST_REPLY_THEN_EXPLICIT_REPLAY -> lostReplyThenExplicitReplay(c, alice, crashing);
            case AUTOMATIC_RETRY_AFTER_LOST_REPLY -> automaticRetryAfterLostReply(c, alice, crashing);
            case CHANGED_INPUT_RESPONSES -> changedInputResponses(c, alice);
            case CHANGED_REQUEST_STATE -> changedRequestState(c, alice);
            case CONCURRENT_CLIENTS -> concurrentClients(c, alice);
            case CRASH_THEN_STATUS -> crashThenStatus(c, alice, crashing);
            case RETENTION_EXPIRY -> retentionExpiry(c, alice);
            case REQUEST_STATE_STRIPPED -> requestStateStripped(c, alice, id);
            case PARTIAL_EFFECT -> partialEffect(c, alice);
            case DROPPED_REPLY -> droppedReply(c, alice);
            case MANUAL_ROUND_AFTER_LIST_TOOLS -> manualRoundAfterListTools(c, alice);
            case DEFAULT_VERSION_NEGOTIATION -> defaultVersionNegotiation(c, alice);
        };
    }

    private static ClientCase identicalRetry(ClientCase.Builder c, ServerSetup alice) {
        return c.server("server", alice).connect("a", "server")
                .roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(APPLIED)
                .commit("a", "s1", ALPHA).sees(REPLAY)
                .close("a").build();
    }

    private static ClientCase neverAdmitted(ClientCase.Builder c, ServerSetup alice) {
        return c.server("server", alice).server("readback", alice).effects(0)
                .connect("a", "server").roundOne("a", "s1").sees(ROUND_ONE).close("a")
                .connect("b", "readback").status("b").sees(Seen.of(STATUS, "unknown")).close("b").build();
    }

    private static ClientCase lostReplyThenExplicitReplay(ClientCase.Builder c, ServerSetup alice, ServerSetup crashing) {
        return c.server("crash", crashing).server("restart", alice).recovers(true)
                .connect("a", "crash").roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(Seen.of(LOST)).close("a")
                .connect("b", "restart").status("b").sees(Seen.of(STATUS, "applied"))
                .commit("b", "s1", ALPHA).sees(REPLAY).close("b").build();
    }

    // The trap: the automatic call hides the state, so the natural retry starts a new operation round and the
    // guard refuses it for the caller's own write. Only the status read-back recovers.
    private static ClientCase automaticRetryAfterLostReply(ClientCase.Builder c, ServerSetup alice, ServerSetup crashing) {
        return c.server("crash", crashing).server("restart", alice).recovers(true)
                .connect("a", "crash").call("a", ALPHA).sees(Seen.of(LOST)).close("a")
                .connect("b", "restart").call("b", ALPHA).sees(Seen.of(REFUSED, "operation_conflict"))
                .status("b").sees(Seen.of(STATUS, "applied")).close("b").build();
    }

    private static ClientCase changedInputResponses(ClientCase.Builder c, ServerSetup alice) {
        return c.server("server", alice).connect("a", "server")
                .roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(APPLIED)
                .commit("a", "s1", "beta").sees(Seen.of(REFUSED, "operation_conflict"))
                .close("a").build();
    }

    private static ClientCase changedRequestState(ClientCase.Builder c, ServerSetup alice) {
        return c.server("server", alice).connect("a", "server")
                .roundOne("a", "s1").sees(ROUND_ONE)
                .roundOne("a", "s2").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(APPLIED)
                .commit("a", "s2", ALPHA).sees(Seen.of(REFUSED, "operation_conflict"))
                .commitTampered("a", "s2", ALPHA).sees(Seen.of(STATE_REFUSED))
                .close("a").build();
    }

    private static ClientCase concurrentClients(ClientCase.Builder c, ServerSetup alice) {
        return c.server("issuer", alice).server("worker-a", alice).server("worker-b", alice)
                .connect("i", "issuer").roundOne("i", "s1").sees(ROUND_ONE).close("i")
                .connect("a", "worker-a").connect("b", "worker-b")
                .parallel(p -> p.commit("a", "s1", ALPHA).commit("b", "s1", ALPHA)).seeInAnyOrder(APPLIED, REPLAY)
                .close("a").close("b").build();
    }

    private static ClientCase crashThenStatus(ClientCase.Builder c, ServerSetup alice, ServerSetup crashing) {
        return c.server("crash", crashing).server("restart", alice).recovers(true)
                .connect("a", "crash").roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(Seen.of(LOST)).close("a")
                .connect("b", "restart").status("b").sees(Seen.of(STATUS, "applied")).close("b").build();
    }

    private static ClientCase retentionExpiry(ClientCase.Builder c, ServerSetup alice) {
        ServerSetup setup = alice.withTtls(360, 60, 600);
        return c.server("current", setup).server("after-retention", setup.at(120)).server("after-sdk-expiry", setup.at(660))
                .connect("a", "current").roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(APPLIED).close("a")
                .connect("b", "after-retention").commit("b", "s1", ALPHA).sees(Seen.of(REFUSED, "operation_retention_expired"))
                .roundOne("b", "s2").sees(ROUND_ONE)
                .commit("b", "s2", ALPHA).sees(Seen.of(REFUSED, "operation_conflict")).close("b")
                .connect("c", "after-sdk-expiry").commit("c", "s1", ALPHA).sees(Seen.of(STATE_REFUSED)).close("c").build();
    }

    private static ClientCase requestStateStripped(ClientCase.Builder c, ServerSetup alice, ClientCaseId id) {
        return c.server("server", alice).effects(0).connect("a", "server")
                .roundOne("a", "s1").sees(ROUND_ONE)
                .commitWithoutState("a", ALPHA).sees(Seen.of(REFUSED, "unsupported_continuation"))
                .roundOneOf("a", id.operationId() + "-new", "s2").sees(ROUND_ONE)
                .close("a").build();
    }

    private static ClientCase partialEffect(ClientCase.Builder c, ServerSetup alice) {
        return c.partial().server("server", alice).server("readback", alice).connect("a", "server")
                .roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(Seen.of(RESULT, "partial"))
                .commit("a", "s1", ALPHA).sees(Seen.of(REPLAYED, "partial")).close("a")
                .connect("b", "readback").status("b").sees(Seen.of(STATUS, "partial")).close("b").build();
    }

    // The relay drops the reply to the first continuation and the server stays up: over stdio the client learns
    // nothing until its timeout; over HTTP the relay closes the request's connection, which the client sees at
    // once. Then status and an exact replay on the same connection recover.
    private static ClientCase droppedReply(ClientCase.Builder c, ServerSetup alice) {
        return c.server("server", alice, 1).recovers(true).connect("a", "server")
                .roundOne("a", "s1").sees(ROUND_ONE)
                .commit("a", "s1", ALPHA).sees(Seen.of(TIMEOUT)).overHttp(Seen.of(LOST),
                        "over HTTP a reply is lost by its connection closing without a response (the relay's"
                                + " DropResponse), which the client notices at once, not by a silence that only the"
                                + " request timeout ends")
                .status("a").sees(Seen.of(STATUS, "applied"))
                .commit("a", "s1", ALPHA).sees(REPLAY).close("a").build();
    }

    private static ClientCase manualRoundAfterListTools(ClientCase.Builder c, ServerSetup alice) {
        return c.server("server", alice).effects(0).connect("a", "server")
                .listTools("a")
                .roundOne("a", "s1").seesInClient(ROUND_ONE, "typescript", Seen.of(Seen.Kind.ERROR, "-32600"), OUTPUT_SCHEMA_CHECK)
                .alsoIn("typescript-client/python-server", Seen.of(Seen.Kind.ERROR, "-32600"), OUTPUT_SCHEMA_CHECK)
                .alsoIn("typescript-client/go-server", Seen.of(Seen.Kind.ERROR, "-32600"), OUTPUT_SCHEMA_CHECK)
                .alsoIn("typescript-client/rust-server", Seen.of(Seen.Kind.ERROR, "-32600"), OUTPUT_SCHEMA_CHECK)
                .roundOneByRequest("a", "s2").sees(ROUND_ONE)
                .close("a").build();
    }

    // Without a version option the TypeScript client offers 2025-11-25, which every server refuses (-32022; the
    // Go fixture -32602); the Java client has no such option and always speaks 2026-07-28.
    private static ClientCase defaultVersionNegotiation(ClientCase.Builder c, ServerSetup alice) {
        c.versionMode("default").server("server", alice).effects(0)
                .connect("a", "server").seesInClient(Seen.of(Seen.Kind.CONNECTED), "typescript", Seen.of(Seen.Kind.ERROR, "-32022"),
                        "the TypeScript client's default version mode offers 2025-11-25 and both servers speak only"
                                + " 2026-07-28 (docs/findings/ts-client-default-version-negotiation.md)")
                .overHttpInClient("typescript", Seen.of(Seen.Kind.OTHER, "SdkHttpError CLIENT_HTTP_NOT_IMPLEMENTED"),
                        "over HTTP the server's -32022 comes as an HTTP 400 with the JSON-RPC error as its body, and"
                                + " the TypeScript transport reads such a body as JSON-RPC only for a modern request,"
                                + " not for the legacy initialize this mode sends: it throws an SdkHttpError with the"
                                + " error as text (docs/findings/ts-client-http-version-refusal-as-http-error.md)")
                .alsoIn("typescript-client/go-server", Seen.of(Seen.Kind.ERROR, "-32602"),
                        "the Go fixture refuses the legacy initialize with -32602 (missing or invalid _meta field"
                                + " \"io.modelcontextprotocol/protocolVersion\"), not -32022"
                                + " (docs/findings/ts-client-default-version-negotiation.md)")
                .alsoIn("typescript-client/python-server", Seen.of(Seen.Kind.ERROR, "-32022"),
                        "the Python fixture's stdio frame gate refuses the legacy initialize itself, as the Java and"
                                + " TypeScript SDKs do; its SDK alone would open a 2025 session"
                                + " (docs/findings/python-sdk-2.3.0.md, 4)")
                .alsoIn("typescript-client/rust-server", Seen.of(Seen.Kind.ERROR, "-32022"),
                        "the Rust fixture's stdio frame gate refuses an initialize itself: its SDK answers -32022 too,"
                                + " but then ends the session (docs/findings/rust-sdk-stdio-frames.md)");
        rustClientSendsInitialize(c, "-32022", "connect");
        c.overHttpIn("typescript-client/rust-server", Seen.of(Seen.Kind.ERROR, "-32022"),
                        "the Rust fixture's HTTP service answers the legacy initialize's -32022 with HTTP 200, not 400, so the"
                                + " TypeScript transport reads it as the JSON-RPC error it is (docs/findings/rust-sdk-http-embedding.md)")
                .overHttpIn("rust-client/go-server", Seen.of(Seen.Kind.OTHER, "ClientInitializeError TransportError"),
                        "the Go fixture's HTTP side refuses the Rust client's initialize with an HTTP error whose body the Rust"
                                + " transport does not read as JSON-RPC: a TransportError"
                                + " (docs/findings/rust-client-default-mode-sends-initialize.md)");
        c.roundOne("a", "s1").seesInClient(ROUND_ONE, "typescript", Seen.of(Seen.Kind.OTHER, "SdkError NOT_CONNECTED"),
                        "after the refused connect the client is not connected")
                .alsoIn("typescript-client/go-server", Seen.of(Seen.Kind.OTHER, "SdkError NOT_CONNECTED"),
                        "after the Go fixture's refused connect the client is not connected")
                .alsoIn("typescript-client/python-server", Seen.of(Seen.Kind.OTHER, "SdkError NOT_CONNECTED"),
                        "after the Python fixture's refused connect the client is not connected")
                .alsoIn("typescript-client/rust-server", Seen.of(Seen.Kind.OTHER, "SdkError NOT_CONNECTED"),
                        "after the Rust fixture's refused connect the client is not connected");
        rustClientSendsInitialize(c, null, "round one");
        return c
                .overHttpInClient("typescript", Seen.of(Seen.Kind.OTHER, "Error"),
                        "after the refused connect over HTTP the client is not connected either, but says so with a"
                                + " plain Error \"Not connected\" (no SdkError code) from the protocol's request path,"
                                + " which holds no transport any more; over stdio the stdio transport is still held"
                                + " and its send throws SdkError NOT_CONNECTED"
                                + " (docs/findings/ts-client-http-version-refusal-as-http-error.md)")
                .close("a").build();
    }

    /**
     * The Rust client's plain {@code serve()} opens with an {@code initialize} that names 2026-07-28, a version with no
     * initialize: every server refuses it (-32022; the Go fixture -32602), and the client is not connected after it
     * (docs/findings/rust-client-default-mode-sends-initialize.md). {@code code} null: the step after the connect.
     */
    private static void rustClientSendsInitialize(ClientCase.Builder c, String code, String step) {
        String finding = " (docs/findings/rust-client-default-mode-sends-initialize.md)";
        for (String server : SERVERS) {
            String cell = "rust-client/" + server + "-server";
            if (code == null) {
                c.alsoIn(cell, Seen.of(Seen.Kind.OTHER, "StepNotRunnable"), "after the refused connect the driver has no client" + finding);
            } else {
                String refusal = server.equals("go") ? "-32602" : code;
                c.alsoIn(cell, Seen.of(Seen.Kind.ERROR, refusal), "the Rust client's default mode sends an initialize naming"
                        + " 2026-07-28, which " + server + "'s server refuses at " + step + finding);
            }
        }
    }

    /** The servers' labels, in column order: the history module's SDK axis, which this module cannot see (ClientCaseServersTest in the checker holds them equal). */
    public static final List<String> SERVERS = List.of("java", "typescript", "python", "go", "rust");

    public static List<ClientCase> all() {
        return Arrays.stream(ClientCaseId.values()).map(ClientCases::spec).toList();
    }

    /**
     * The cells where a client SDK itself cannot pass a case, each with its finding. Kept short on purpose, as
     * {@code lab conformance}'s lists are: an entry is an SDK's limit, reproduced on its page, never the lab's gap.
     */
    public static List<ClientExpectedFailure> expectedFailures() {
        return List.of(new ClientExpectedFailure(ClientCaseId.DROPPED_REPLY, "python", SERVERS,
                ClientTransport.HTTP, List.of(
                        "step 3 (status): saw lost (threw MCPError -32000), expected status applied",
                        "step 4 (call_once): saw lost (threw MCPError -32000), expected replayed applied",
                        "the application did not recover the stored result"),
                "after one POST lost its response the client's HTTP connection is closed: the status and the exact replay"
                        + " on it fail at once with Connection closed and are never sent",
                "mcp 2.3.0 mcp/client/streamable_http.py: StreamableHTTPTransport.post_writer / _run_request_post (the"
                        + " POST's error leaves the transport's task group)",
                "docs/findings/python-client-http-lost-post-ends-the-connection.md"));
    }

    /** The expected failure that concerns case {@code id} in a cell, if one does. */
    public static java.util.Optional<ClientExpectedFailure> expectedFailure(ClientCaseId id, String client, String server,
            ClientTransport transport) {
        return expectedFailures().stream().filter(e -> e.covers(id, client, server, transport)).findFirst();
    }
}
