package lab.continuationreplay.matrix.javaserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.vectors.ExactJson;

/** Test support: start a server of a kind in a folder, and the two rounds of a guarded call. */
public final class Servers {
    private static final AtomicInteger SERIAL = new AtomicInteger();

    private Servers() {}

    public static ServerProcess start(ServerKind kind, WireSettings settings, Path dir) throws Exception {
        int n = SERIAL.incrementAndGet();
        return ServerProcess.start(kind.command(LabHome.resolve()), settings.environment(),
                dir.resolve("server-" + n + ".transcript.log"), dir.resolve("server-" + n + ".stderr.log"),
                ServerProcess.READ_TIMEOUT);
    }

    public static ObjectNode arguments(String operationId, String title) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", operationId).put("title", title);
    }

    /** Arguments of the unguarded control's {@code create_issue}. */
    public static ObjectNode controlArguments(String title) {
        return JsonNodeFactory.instance.objectNode().put("title", title);
    }

    public static JsonNode accepted(String body) {
        return ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":" + JsonNodeFactory.instance.textNode(body) + "}}}");
    }

    /** Round one; returns the requestState of the input_required result. */
    public static String firstRound(ServerProcess server, ObjectNode arguments) throws TransportFailure {
        ObjectNode reply = server.callTool(kindTool(arguments), arguments, null, null);
        JsonNode result = reply.path("result");
        if (!"input_required".equals(result.path("resultType").textValue())) {
            throw new AssertionError("expected input_required, got " + reply);
        }
        return result.get("requestState").textValue();
    }

    public static ObjectNode continuation(ServerProcess server, ObjectNode arguments, String body, String state) throws TransportFailure {
        return server.callTool(kindTool(arguments), arguments, accepted(body), state);
    }

    private static String kindTool(ObjectNode arguments) {
        return arguments.has("operation_id") ? "create_guarded_issue" : "create_issue";
    }

    public static Duration exitWait() {
        return Duration.ofSeconds(15);
    }
}
