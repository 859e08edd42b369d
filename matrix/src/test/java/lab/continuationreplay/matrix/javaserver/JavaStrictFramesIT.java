package lab.continuationreplay.matrix.javaserver;

import static lab.continuationreplay.matrix.javaserver.Servers.arguments;
import static lab.continuationreplay.matrix.javaserver.Servers.continuation;
import static lab.continuationreplay.matrix.javaserver.Servers.firstRound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire fuzzer's reproducers for the Java server, over real stdio: a continuation that is not JSON-RPC 2.0 text
 * (trailing token, invalid UTF-8 in the body, {@code "jsonrpc":2.0} as a number) gets the error the SDK gives for its
 * class of problem, and no issue row; the same continuation sent validly afterwards commits once.
 */
class JavaStrictFramesIT {
    static final String PARSE_ERROR = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";

    @TempDir
    Path dir;
    Path db;
    ServerProcess server;

    @BeforeEach
    void start() throws Exception {
        db = dir.resolve("store.sqlite3");
        server = Servers.start(ServerKind.JAVA, WireSettings.matrix(db, "alice"), dir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A continuation frame exactly as {@link ServerProcess#callTool} would send it, with the given id. */
    static String continuationFrame(String id, ObjectNode call, String state) {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("name", "create_guarded_issue");
        params.set("arguments", call);
        params.set("inputResponses", Servers.accepted("alpha"));
        params.put("requestState", state);
        params.set("_meta", WireEnvelope.meta());
        ObjectNode frame = JsonNodeFactory.instance.objectNode();
        frame.put("jsonrpc", "2.0");
        frame.put("id", id);
        frame.put("method", "tools/call");
        frame.set("params", params);
        return frame.toString();
    }

    String reply() throws InterruptedException {
        Optional<String> line = server.nextLine(Servers.exitWait());
        assertTrue(line.isPresent(), "a reply");
        return line.get();
    }

    void assertNothingApplied(String operationId) throws Exception {
        assertEquals(0, StoreRows.count(db, "issues"));
        assertEquals(0, StoreRows.rows(db, "SELECT 1 FROM operations WHERE operation_id = ?", operationId).size());
    }

    /** Afterwards the same continuation, sent validly, commits: one row. */
    void assertStillCommits(ObjectNode call, String state) throws Exception {
        JsonNode applied = continuation(server, call, "alpha", state).path("result").path("structuredContent");
        assertEquals("applied", applied.path("state").textValue(), applied.toString());
        assertFalse(applied.path("replayed").booleanValue());
        assertEquals(1, StoreRows.count(db, "issues"));
    }

    @Test
    void aTrailingTokenAfterTheObjectIsAParseErrorAndAppliesNothing() throws Exception {
        ObjectNode call = arguments("strict-trailing", "strict-trailing");
        String state = firstRound(server, call);
        server.sendRaw(continuationFrame("trailing", call, state) + "}");
        assertEquals(PARSE_ERROR, reply());
        assertNothingApplied("strict-trailing");
        assertStillCommits(call, state);
    }

    @Test
    void invalidUtf8InTheBodyIsAParseErrorAndAppliesNothing() throws Exception {
        ObjectNode call = arguments("strict-utf8", "strict-utf8");
        String state = firstRound(server, call);
        String[] halves = continuationFrame("utf8", call, state).split("alpha", 2);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.writeBytes(halves[0].getBytes(StandardCharsets.UTF_8));
        frame.writeBytes(new byte[] {'a', 'l', (byte) 0xff, 'p', 'h', (byte) 0xc3, 'a'});
        frame.writeBytes(halves[1].getBytes(StandardCharsets.UTF_8));
        server.sendBytes(frame.toByteArray());
        assertEquals(PARSE_ERROR, reply());
        assertNothingApplied("strict-utf8");
        assertStillCommits(call, state);
    }

    @Test
    void aNumericJsonrpcIsAnInvalidMessageWithItsIdAndAppliesNothing() throws Exception {
        ObjectNode call = arguments("strict-version", "strict-version");
        String state = firstRound(server, call);
        String frame = continuationFrame("version", call, state);
        server.sendRaw(frame.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":2.0"));
        JsonNode reply = ExactJson.parse(reply());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"version\",\"error\":{\"code\":-32600,\"message\":\"Invalid JSON-RPC message\"}}",
                reply.toString());
        assertNothingApplied("strict-version");
        assertStillCommits(call, state);
    }

    @Test
    void theThreeShapesInARowLeaveTheServerServingAndWriteNothing() throws Exception {
        ObjectNode call = arguments("strict-all", "strict-all");
        String state = firstRound(server, call);
        String frame = continuationFrame("all", call, state);
        server.sendRaw(frame + " {}");
        server.sendBytes(frame.replace("alpha", "alph\u00e9").getBytes(StandardCharsets.ISO_8859_1));
        server.sendRaw(frame.replace("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":2"));
        int parseErrors = 0;
        int invalid = 0;
        for (int i = 0; i < 3; i++) {
            JsonNode reply = ExactJson.parse(reply());
            int code = reply.path("error").path("code").intValue();
            parseErrors += code == -32700 ? 1 : 0;
            invalid += code == -32600 ? 1 : 0;
        }
        assertEquals(2, parseErrors);
        assertEquals(1, invalid);
        assertTrue(server.nextLine(Duration.ofMillis(300)).isEmpty(), "no other reply");
        assertNothingApplied("strict-all");
        assertStillCommits(call, state);
    }
}
