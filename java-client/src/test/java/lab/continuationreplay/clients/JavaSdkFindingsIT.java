package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.McpSyncClient.ToolSpec;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two behaviours of the Java SDK 2.2.0 client that docs/findings/ describe, shown on the SDK itself (no driver): what
 * environment a stdio server gets, and what a manual round sends when a spec's return value is dropped.
 */
class JavaSdkFindingsIT {
    private static final String MARKER = "LAB_FINDING_SECRET";
    private static final Set<String> SDK_DEFAULT_NAMES = Set.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");

    @TempDir
    Path dir;

    /**
     * {@code ServerParameters} keeps six names of the parent's environment, but the stdio transport adds them to the
     * environment its {@code ProcessBuilder} already inherited: the server sees everything, a secret too. The marker
     * must be in the parent's environment, which a running JVM cannot change, hence the child JVM.
     */
    @Test
    void theStdioServerInheritsTheWholeParentEnvironment() throws Exception {
        Path seen = dir.resolve("seen-by-server.txt");
        ProcessBuilder builder = new ProcessBuilder(DriverProcess.java(), "-cp", System.getProperty("java.class.path"),
                EnvironmentProbe.class.getName(), seen.toString())
                .redirectError(dir.resolve("probe.stderr").toFile());
        builder.environment().put(MARKER, "s3cr3t-marker");
        Process probe = builder.start();
        String stdout = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(probe.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not finish");
        assertEquals(0, probe.exitValue(), () -> "probe failed: " + read(dir.resolve("probe.stderr")));

        Set<String> kept = new TreeSet<>(Arrays.asList(stdout.split(",")));
        assertTrue(SDK_DEFAULT_NAMES.containsAll(kept), "ServerParameters.getEnv() names: " + kept);
        assertFalse(kept.contains(MARKER), "the SDK's own list leaves the marker out");
        assertEquals("s3cr3t-marker", read(seen), "yet the server process was started with it");
    }

    /** The child JVM: a stdio "server" that writes down the marker, started with the SDK's default environment. */
    public static final class EnvironmentProbe {
        public static void main(String[] args) throws Exception {
            Path seen = Path.of(args[0]);
            ServerParameters server = ServerParameters.builder("sh")
                    .args("-c", "printf %s \"${" + MARKER + "-absent}\" > \"$1\"; while read line; do :; done", "sh", seen.toString())
                    .build();
            System.out.println(String.join(",", new TreeSet<>(server.getEnv().keySet())));
            StdioMcpClientTransport transport = StdioMcpClientTransport.builder(server).stderrConsumer(line -> { }).start();
            try {
                for (int i = 0; i < 200 && (!Files.exists(seen) || Files.size(seen) == 0); i++) {
                    Thread.sleep(50);
                }
            } finally {
                transport.close();
            }
        }
    }

    /**
     * {@code ToolSpec} setters return a new spec and leave the old one as it was. Calling the old one after
     * setting the answers and the state on it (return values dropped) sends round one again: the server answers
     * input_required with a new state, and nothing is written. It compiles and throws nothing.
     */
    @Test
    void aDroppedSpecReturnValueSendsRoundOneAgain() throws Exception {
        Path db = dir.resolve("store.sqlite3");
        List<String> command = GuardedServer.JAVA.command();
        ServerParameters parameters = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size()))
                .env(GuardedServer.JAVA.env(db, null)).build();
        StdioMcpClientTransport transport = StdioMcpClientTransport.builder(parameters).stderrConsumer(line -> { }).start();
        try {
            McpSyncClient client = McpClient.sync(transport)
                    .clientInfo(Implementation.builder("findings", "1.0.0").build())
                    .formElicitation(request -> ElicitResult.decline())
                    .build();
            client.discover();
            Map<String, Object> arguments = Map.of("operation_id", "dropped-spec", "title", "t", "mode", "atomic");
            InputRequiredResult roundOne = (InputRequiredResult) client.tool("create_guarded_issue").arguments(arguments).callOnce();

            ToolSpec spec = client.tool("create_guarded_issue").arguments(arguments);
            spec.inputResponses(Map.of("body", Map.of("action", "accept", "content", Map.of("body", "alpha"))));
            spec.requestState(roundOne.requestState());
            CallToolOutcome outcome = spec.callOnce();

            assertTrue(outcome instanceof InputRequiredResult, "round one again, not a commit: " + outcome);
            assertNotEquals(roundOne.requestState(), ((InputRequiredResult) outcome).requestState(), "a new state");
        } finally {
            transport.close();
        }
        assertEquals(0, GuardedServer.issueRows(db), "nothing was written");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(" + file + " unreadable: " + e + ")";
        }
    }
}
