package lab.continuationreplay.conformance.suite;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The program the suite starts as "the client" ({@code conformance client --command ...}): it turns the scenario the
 * suite names ({@code MCP_CONFORMANCE_SCENARIO}) and the URL it appends into a client script, and runs the lab's client
 * driver for one SDK on it, so the official SDK client is what meets the suite. Arguments: CLIENT HOME FOLDER URL.
 * The script, the driver's records and its stderr stay in FOLDER/SCENARIO/ as evidence. Exit: the driver's.
 */
public final class SuiteClientMain {
    /** A driver's request timeout: the suite's mock servers answer at once, so a stall is a finding, not a wait. */
    static final long REQUEST_TIMEOUT_MS = 10_000;

    private SuiteClientMain() {}

    public static void main(String[] args) throws Exception {
        PrintStream err = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true, StandardCharsets.UTF_8);
        if (args.length != 4) {
            err.println("suite client: expected CLIENT HOME FOLDER URL, got " + args.length + " argument(s)");
            System.exit(2);
        }
        String scenarioName = System.getenv("MCP_CONFORMANCE_SCENARIO");
        ClientScenario scenario = scenarioName == null ? null : ClientScenario.of(scenarioName).orElse(null);
        if (scenario == null) {
            err.println("suite client: the lab's drivers do not serve scenario " + scenarioName);
            System.exit(2);
        }
        ClientKind client = ClientKind.fromLabel(args[0]);
        Path home = Path.of(args[1]);
        Path folder = Path.of(args[2]).resolve(scenario.scenario());
        Files.createDirectories(folder);
        Path script = folder.resolve("script.json");
        Path records = folder.resolve("client.records.jsonl");
        String context = System.getenv("MCP_CONFORMANCE_CONTEXT");
        JsonNode parsed;
        try {
            parsed = context == null || context.isBlank() ? ExactJson.mapper().createObjectNode() : ExactJson.parse(context);
        } catch (RuntimeException e) {
            err.println("suite client: MCP_CONFORMANCE_CONTEXT is not JSON: " + e.getMessage());
            System.exit(2);
            return;
        }
        Files.writeString(script, ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(
                scenario.script(args[3], REQUEST_TIMEOUT_MS, parsed)) + "\n");
        List<String> command = client.command(home, script, records);
        Exec.Result result = Exec.command(command).addingEnvironment(Map.of(ClientScenario.TOKEN_VARIABLE, token()))
                .withStderr(Exec.Io.appendTo(folder.resolve("driver.stderr.log"))).run(Duration.ofMinutes(2));
        if (!result.output().isEmpty()) {
            // a driver's stdout is unused; anything on it is kept, not lost
            Files.writeString(folder.resolve("driver.stdout.log"), result.output());
        }
        System.exit(result.timedOut() ? 124 : result.exitStatus());
    }

    /** A fresh token per run: the drivers insist on one for an HTTP server, and the mock servers never read it. */
    private static String token() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
