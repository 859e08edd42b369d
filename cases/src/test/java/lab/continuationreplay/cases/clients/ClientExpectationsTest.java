package lab.continuationreplay.cases.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lab.continuationreplay.cases.ServerSetup;
import org.junit.jupiter.api.Test;

/** Which expectation a cell is held to, and what a difference must carry; the words that name an unknown outcome. */
class ClientExpectationsTest {
    private static final Seen DEFAULT = Seen.of(Seen.Kind.INPUT_REQUIRED);
    private static final Seen PAIR = Seen.of(Seen.Kind.ERROR, "-32600");
    private static final Seen HTTP = Seen.of(Seen.Kind.LOST);
    private static final Seen EXACT = Seen.of(Seen.Kind.OTHER, "exact");

    private static ClientCase.Builder oneStep() {
        return ClientCase.of(ClientCaseId.IDENTICAL_RETRY).server("server", ServerSetup.alice()).connect("a", "server")
                .roundOne("a", "s1");
    }

    @Test
    void aCellIsHeldToItsOwnEntryThenItsTransportThenItsPairThenTheCase() {
        ClientCase.Expectation e = oneStep().sees(DEFAULT, "typescript-client/java-server", PAIR, "pair")
                .overHttp(HTTP, "transport").overHttpIn("java-client/java-server", EXACT, "exact").build().expectations().get(0);
        assertEquals(DEFAULT, e.forCell("java-client/java-server"));
        assertEquals(PAIR, e.forCell("typescript-client/java-server"));
        assertEquals(EXACT, e.forCell("java-client/java-server/http"));
        assertEquals(HTTP, e.forCell("typescript-client/java-server/http"), "the transport before the pair");
        assertEquals("transport", e.differs("java-client/typescript-server/http").orElseThrow().because());
        assertTrue(e.differs("java-client/typescript-server").isEmpty());
    }

    @Test
    void aClientsEntryOverATransportHoldsForEveryServerItDrivesAndComesBeforeTheTransportAndThePair() {
        ClientCase.Expectation e = oneStep().sees(DEFAULT, "typescript-client/go-server", PAIR, "pair")
                .overHttp(HTTP, "transport").overHttpInClient("typescript", EXACT, "client").build().expectations().get(0);
        for (String server : new String[] {"java", "typescript", "python", "go"}) {
            assertEquals(EXACT, e.forCell("typescript-client/" + server + "-server/http"), server);
            assertEquals(HTTP, e.forCell("java-client/" + server + "-server/http"), server);
        }
        assertEquals(PAIR, e.forCell("typescript-client/go-server"), "over stdio the pair's entry still holds");
        assertEquals(DEFAULT, e.forCell("typescript-client/python-server"));
    }

    @Test
    void aPairsDifferenceHoldsOverHttpWhenNoTransportEntrySaysOtherwise() {
        ClientCase.Expectation e = oneStep().sees(DEFAULT, "typescript-client/java-server", PAIR, "pair").build().expectations().get(0);
        assertEquals(PAIR, e.forCell("typescript-client/java-server/http"));
        assertEquals(DEFAULT, e.forCell("java-client/java-server/http"));
    }

    @Test
    void everyDifferenceNeedsItsReasonAndIsGivenOnce() {
        assertThrows(IllegalArgumentException.class, () -> oneStep().sees(DEFAULT).overHttp(HTTP, " "));
        assertThrows(IllegalArgumentException.class, () -> oneStep().sees(DEFAULT).overHttp(HTTP, "a").overHttp(HTTP, "b"));
        assertThrows(IllegalStateException.class, () -> oneStep().overHttp(HTTP, "no expectation before it"));
    }

    @Test
    void theCasesDifferencesOverHttpAllSayWhy() {
        int overHttp = 0;
        for (ClientCase clientCase : ClientCases.all()) {
            for (ClientCase.Expectation e : clientCase.expectations()) {
                for (var entry : e.byCell().entrySet()) {
                    assertFalse(entry.getValue().because().isBlank(), clientCase.id() + " " + entry.getKey());
                    overHttp += entry.getKey().endsWith("http") ? 1 : 0;
                }
            }
        }
        assertEquals(5, overHttp, "dropped-reply (1) and version-default (2 steps of the TypeScript client over HTTP, the"
                + " TypeScript client against the Rust server and the Rust client against the Go server over HTTP)");
    }

    @Test
    void theRustClientsFailedPostIsLostOnlyWhenHyperSaysTheConnectionClosedBeforeTheResponse() {
        String closed = "DynamicTransportError: Transport error: Client error: error sending request for url (http://127.0.0.1:1/mcp);"
                + " caused by hyper_util::client::legacy::Error: client error (SendRequest); caused by hyper::Error: connection closed"
                + " before message completed";
        assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("rust", ClientTransport.HTTP,
                new ClientVocabulary.Thrown("ServiceError", "TransportSend", "Transport send error", closed)));
        assertNull(ClientVocabulary.unknownOutcome("rust", ClientTransport.HTTP, new ClientVocabulary.Thrown("ServiceError",
                "TransportSend", "Transport send error", "hyper_util::client::legacy::Error: client error (Connect); caused by"
                        + " ConnectError: tcp connect error; caused by Connection refused (os error 111)")),
                "a refused connection never reached the server: nothing is unknown");
        assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("rust", ClientTransport.STDIO,
                new ClientVocabulary.Thrown("ServiceError", "TransportClosed", "Transport closed", null)));
    }

    @Test
    void theTypeScriptFetchFailureIsLostOnlyOverHttpAndOnlyWithTheClosedSocketAsItsCause() {
        ClientVocabulary.Thrown closed = new ClientVocabulary.Thrown("TypeError", null, "fetch failed", "SocketError: other side closed");
        assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("typescript", ClientTransport.HTTP, closed));
        assertNull(ClientVocabulary.unknownOutcome("typescript", ClientTransport.STDIO, closed));
        assertNull(ClientVocabulary.unknownOutcome("java", ClientTransport.HTTP, closed));
        assertNull(ClientVocabulary.unknownOutcome("typescript", ClientTransport.HTTP,
                new ClientVocabulary.Thrown("TypeError", null, "fetch failed", "Error: connect ECONNREFUSED 127.0.0.1:9")),
                "a refused connection never reached the server: nothing is unknown");
        assertNull(ClientVocabulary.unknownOutcome("typescript", ClientTransport.HTTP,
                new ClientVocabulary.Thrown("TypeError", null, "Cannot read properties of undefined", null)), "a bug is no lost reply");
    }

    @Test
    void theSdksOwnWordsHoldOnEitherTransport() {
        for (ClientTransport transport : ClientTransport.values()) {
            assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("java", transport,
                    new ClientVocabulary.Thrown("McpResponseLostException", null, "lost", "IOException: HTTP/1.1 header parser received no bytes")));
            assertEquals(Seen.Kind.TIMEOUT, ClientVocabulary.unknownOutcome("typescript", transport,
                    new ClientVocabulary.Thrown("SdkError", "REQUEST_TIMEOUT", "Request timed out", null)));
            assertNull(ClientVocabulary.unknownOutcome("typescript", transport,
                    new ClientVocabulary.Thrown("SdkError", "NOT_CONNECTED", "Not connected", null)));
        }
    }

    /** The Python client's codes are its SDK's own; a server's JSON-RPC error with the same code and another message is no lost reply. */
    @Test
    void thePythonClientIsReadByItsSdksCodeAndExactMessage() {
        for (ClientTransport transport : ClientTransport.values()) {
            assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("python", transport,
                    new ClientVocabulary.Thrown("MCPError", "-32000", "Connection closed", null)));
            assertEquals(Seen.Kind.TIMEOUT, ClientVocabulary.unknownOutcome("python", transport,
                    new ClientVocabulary.Thrown("MCPError", "-32001", "Request 'tools/call' timed out", null)));
            assertNull(ClientVocabulary.unknownOutcome("python", transport,
                    new ClientVocabulary.Thrown("MCPError", "-32000", "operation_conflict", null)));
            assertNull(ClientVocabulary.unknownOutcome("go", transport,
                    new ClientVocabulary.Thrown("MCPError", "-32000", "Connection closed", null)));
        }
    }

    /** The Go client: io.EOF over stdio, ErrRejected with a POST's EOF over HTTP, never a refused connection. */
    @Test
    void theGoClientIsReadByTheErrorChainAndOverHttpOnlyByAPostThatMetEndOfFile() {
        ClientVocabulary.Thrown eof = new ClientVocabulary.Thrown("*fmt.wrapError", "EOF", "calling \"tools/call\": EOF", "*errors.errorString: EOF");
        assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("go", ClientTransport.STDIO, eof));
        assertNull(ClientVocabulary.unknownOutcome("go", ClientTransport.HTTP, eof));
        String post = "calling \"tools/call\": sending \"tools/call\": rejected by transport: Post \"http://127.0.0.1:39151/mcp\": ";
        assertEquals(Seen.Kind.LOST, ClientVocabulary.unknownOutcome("go", ClientTransport.HTTP,
                new ClientVocabulary.Thrown("*fmt.wrapError", "-32005", post + "EOF", null)));
        assertNull(ClientVocabulary.unknownOutcome("go", ClientTransport.HTTP, new ClientVocabulary.Thrown("*fmt.wrapError", "-32005",
                post + "dial tcp 127.0.0.1:39151: connect: connection refused", null)), "a refused connection never reached the server");
        assertNull(ClientVocabulary.unknownOutcome("go", ClientTransport.STDIO,
                new ClientVocabulary.Thrown("*fmt.wrapError", "-32005", post + "EOF", null)));
        for (ClientTransport transport : ClientTransport.values()) {
            assertEquals(Seen.Kind.TIMEOUT, ClientVocabulary.unknownOutcome("go", transport,
                    new ClientVocabulary.Thrown("context.deadlineExceededError", "DeadlineExceeded", "context deadline exceeded", null)));
        }
    }
}
