package lab.continuationreplay.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.ServerKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = {
            "Runs one of the lab's MCP servers on this terminal's stdin/stdout (protocol 2026-07-28, newline-delimited"
                    + " JSON-RPC), configured by the WIRE_* environment: WIRE_SERVER_DB, WIRE_BACKEND_ID, WIRE_PRINCIPAL,"
                    + " WIRE_CLOCK_EPOCH, WIRE_AUTHORITY_TTL, WIRE_REPLAY_RETENTION_TTL, WIRE_REQUEST_STATE_TTL,"
                    + " WIRE_STATE_KEY_HEX, WIRE_FINGERPRINT_KEY_HEX, optional WIRE_FAULT.",
            "With --http PORT the same server speaks Streamable HTTP at http://127.0.0.1:PORT/mcp instead (0: a free"
                    + " port, printed on stderr), with bearer principals from WIRE_BEARER_TOKENS_FILE (docs/http.md).",
            "With --http PORT --conformance the server also serves the official conformance suite's fixtures, and without"
                    + " WIRE_BEARER_TOKENS_FILE needs no token (docs/conformance.md; per server"
                    + " docs/java-server.md, docs/typescript-fixture.md, docs/python-fixture.md and docs/go-fixture.md, \"Conformance profile\").",
            "Exits with the server's status (2 for a bad configuration; 70-73 for lab faults)."
        })
final class ServerCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "KIND", description = "java, typescript, python, go, rust or unguarded (each also with --http)")
    String kind;

    @Option(names = "--http", paramLabel = "PORT", description = "Serve Streamable HTTP on 127.0.0.1:PORT (0: a free port).")
    Integer httpPort;

    @Option(names = "--conformance",
            description = "With --http: serve the conformance profile (the official suite's fixtures beside the guarded tools).")
    boolean conformance;

    @Override
    public Integer call() throws Exception {
        ServerKind server = ServerKind.fromLabel(kind);
        List<String> command = new ArrayList<>(server.command(LabHome.resolve()));
        if (httpPort != null) {
            if (httpPort < 0 || httpPort > 65535) {
                throw new IllegalArgumentException("--http " + httpPort + " is not a port (0 to 65535)");
            }
            command.addAll(List.of("--http", Integer.toString(httpPort)));
        }
        if (conformance) {
            // Passed on as it is: the server owns the rule that the profile needs --http, and says so itself.
            command.add("--conformance");
        }
        Process process = Exec.command(command).inheritIo().start();
        // Stopping the lab stops its server: an HTTP server has no stdin to see end, and would keep its port.
        Thread stop = new Thread(() -> {
            if (process.isAlive()) {
                Exec.endByTerm(process, java.time.Duration.ofSeconds(10));
            }
            // Ended by a signal (SIGTERM from docker stop, a supervisor), the JVM would exit 143 whatever the server
            // said; the lab's status is the server's own, so a clean shutdown stays 0 and a fault exit keeps its code.
            if (!process.isAlive()) {
                Runtime.getRuntime().halt(process.exitValue());
            }
        }, "stop-server");
        Runtime.getRuntime().addShutdownHook(stop);
        int status = process.waitFor();
        Runtime.getRuntime().removeShutdownHook(stop);
        return status;
    }
}
