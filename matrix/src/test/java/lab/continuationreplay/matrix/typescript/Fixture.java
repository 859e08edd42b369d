package lab.continuationreplay.matrix.typescript;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.vectors.ExactJson;

/** Test support: the built TypeScript fixture ({@code node ts-fixture/dist/server.js}) as a process, and its calls. */
final class Fixture {
    static final long T0 = WireSettings.T0;
    static final String STATE_KEY_HEX = WireSettings.STATE_KEY_HEX;
    static final String FINGERPRINT_KEY_HEX = WireSettings.FINGERPRINT_KEY_HEX;
    static final String GUARDED = "create_guarded_issue";
    static final String STATUS = "get_operation_status";
    // The first call waits for the bridge JVM the fixture starts next to it.
    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger SERIAL = new AtomicInteger();

    private Fixture() {}

    /** The lab environment: principal alice, the matrix backend, T0, TTLs 300/360/600, the database in {@code dir}. */
    static Map<String, String> environment(Path dir) {
        Map<String, String> env = new HashMap<>(WireSettings.matrix(database(dir), "alice").environment());
        // the bridge child runs on the JDK of this build
        env.put("JAVA_HOME", System.getProperty("java.home"));
        return env;
    }

    static Path database(Path dir) {
        return dir.resolve("store.sqlite3");
    }

    static ServerProcess start(Path dir) throws Exception {
        return start(dir, environment(dir));
    }

    static ServerProcess start(Path dir, Map<String, String> environment) throws Exception {
        Path home = LabHome.resolve();
        LabHome.requireFile(home.resolve("bridge/target/bridge.jar"), "build the bridge (mvn -pl bridge package)");
        int n = SERIAL.incrementAndGet();
        return ServerProcess.start(ServerKind.TYPESCRIPT.command(home), environment,
                dir.resolve("server-" + n + ".transcript.log"), dir.resolve("server-" + n + ".stderr.log"), READ_TIMEOUT);
    }

    static ObjectNode arguments(String operationId, String title) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", operationId).put("title", title);
    }

    static JsonNode accepted(String body) {
        ObjectNode responses = JsonNodeFactory.instance.objectNode();
        ObjectNode response = responses.putObject("body");
        response.put("action", "accept");
        response.putObject("content").put("body", body);
        return responses;
    }

    /** Round one; returns the requestState of its input_required result. */
    static String firstRound(ServerProcess server, ObjectNode arguments) throws TransportFailure {
        ObjectNode reply = server.callTool(GUARDED, arguments, null, null);
        assertEquals("input_required", reply.at("/result/resultType").textValue(), reply.toString());
        return reply.at("/result/requestState").textValue();
    }

    static ObjectNode continuation(ServerProcess server, ObjectNode arguments, String body, String state) throws TransportFailure {
        return server.callTool(GUARDED, arguments, accepted(body), state);
    }

    static ObjectNode status(ServerProcess server, String operationId) throws TransportFailure {
        return server.callTool(STATUS, JsonNodeFactory.instance.objectNode().put("operation_id", operationId), null, null);
    }

    /** The structured content of a complete, successful tool result. */
    static JsonNode structured(ObjectNode reply) {
        assertEquals("complete", reply.at("/result/resultType").textValue(), reply.toString());
        assertEquals(false, reply.at("/result/isError").asBoolean(false), reply.toString());
        JsonNode content = reply.at("/result/structuredContent");
        // the text content is the same object as compact JSON
        assertEquals(content, ExactJson.parse(reply.at("/result/content/0/text").textValue()));
        return content;
    }

    /** The text of an isError tool result (TS SDK v2's channel for application errors). */
    static String toolError(ObjectNode reply) {
        assertEquals(true, reply.at("/result/isError").asBoolean(false), reply.toString());
        assertEquals("text", reply.at("/result/content/0/type").textValue());
        return reply.at("/result/content/0/text").textValue();
    }

    /** Asserts the frozen JSON-RPC rejection of a requestState and that nothing else came with it. */
    static void assertStateRejected(ObjectNode reply) {
        assertEquals(ExactJson.parse("{\"code\":-32602,\"message\":\"Invalid or expired requestState\","
                + "\"data\":{\"reason\":\"invalid_request_state\"}}"), reply.get("error"), reply.toString());
        assertEquals(false, reply.has("result"));
    }

    /** Flips one character in the middle of a token, keeping it in the base64url alphabet. */
    static String tampered(String token) {
        int middle = token.length() / 2;
        char flipped = token.charAt(middle) == 'A' ? 'B' : 'A';
        return token.substring(0, middle) + flipped + token.substring(middle + 1);
    }

    /** Everything a run wrote outside the database: transcripts and stderr logs. */
    static String evidence(Path dir) throws Exception {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                all.append(Files.readString(file));
            }
        }
        return all.toString();
    }
}
