package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lab's two guarded servers as a script names them: the built artifacts started as processes, with the trusted
 * {@code WIRE_*} environment. The keys are test values, not anyone's secrets.
 */
enum GuardedServer {
    JAVA,
    TYPESCRIPT;

    /** Every JVM whose stdout is a wire starts with these (vectors/rules/stdio-jvm-options.json). */
    static final List<String> STDIO_JVM_OPTIONS = List.of("-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr");

    List<String> command() {
        Path home = DriverProcess.home();
        List<String> command = new ArrayList<>();
        if (this == JAVA) {
            command.add(DriverProcess.java());
            command.addAll(STDIO_JVM_OPTIONS);
            // The lab's own server options: fastest start for a one-client stdio server.
            command.addAll(DriverProcess.caseJvmOptions());
            command.addAll(List.of("-jar", built(home.resolve("java-server/target/java-server.jar"))));
        } else {
            String node = System.getenv("LAB_NODE");
            command.add(node == null || node.isBlank() ? "node" : node);
            command.add(built(home.resolve("ts-fixture/dist/server.js")));
        }
        return command;
    }

    Map<String, String> env(Path database, String fault) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WIRE_SERVER_DB", database.toString());
        env.put("WIRE_BACKEND_ID", "sqlite:guarded-matrix");
        env.put("WIRE_PRINCIPAL", "alice");
        env.put("WIRE_CLOCK_EPOCH", "1790035200");
        env.put("WIRE_AUTHORITY_TTL", "300");
        env.put("WIRE_REPLAY_RETENTION_TTL", "360");
        env.put("WIRE_REQUEST_STATE_TTL", "600");
        env.put("WIRE_STATE_KEY_HEX", "11".repeat(32));
        env.put("WIRE_FINGERPRINT_KEY_HEX", "22".repeat(32));
        if (fault != null) {
            env.put("WIRE_FAULT", fault);
        }
        if (this == TYPESCRIPT) {
            // The fixture's bridge on this test's JDK, its stdout kept for answers only.
            ArrayNode bridge = JsonNodeFactory.instance.arrayNode();
            bridge.add(DriverProcess.java());
            STDIO_JVM_OPTIONS.forEach(bridge::add);
            DriverProcess.caseJvmOptions().forEach(bridge::add);
            bridge.add("-jar").add(built(DriverProcess.home().resolve("bridge/target/bridge.jar")));
            env.put("LAB_BRIDGE_COMMAND", bridge.toString());
        }
        return env;
    }

    static long issueRows(Path database) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM issues")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static String built(Path artifact) {
        if (!Files.isRegularFile(artifact)) {
            throw new IllegalStateException("build the lab first (mvn -DskipTests package): " + artifact);
        }
        return artifact.toString();
    }
}
