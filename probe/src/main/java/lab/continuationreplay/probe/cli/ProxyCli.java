package lab.continuationreplay.probe.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.probe.ProbeInputException;
import lab.continuationreplay.probe.check.ProxyCheck;
import lab.continuationreplay.probe.proxy.ProxyOptions;
import lab.continuationreplay.probe.proxy.ProxyRunner;
import lab.continuationreplay.probe.report.ProxyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code proxy}: a relay between a client application and its server that loses one reply, records everything, and
 * says what the client did next. Over stdio its stdout is the wire, so everything it says goes to stderr.
 */
@Command(
        name = "proxy",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "For client authors: what does your application do when the reply that completes a tool call is lost after"
                    + " the server committed? Put the proxy between your client and its server: over stdio, configure"
                    + " the client to start `proxy [options] -- SERVER COMMAND...` in place of the server; over Streamable"
                    + " HTTP, run `proxy --listen PORT --upstream URL` and point the client at http://127.0.0.1:PORT.",
            "It relays every frame, keeps the chosen reply from the client (--lose final-reply: the client hears nothing"
                    + " and waits; --lose connection-after-commit: its connection ends at once), and records both sides"
                    + " with their times. It stops after --calls tool calls, when the client ends the session, or on"
                    + " SIGTERM, then writes proxy.json (what the client did: retried-same-state, retried-changed-answers,"
                    + " new-call or gave-up, after how long, and what that got) and report.html; `verify DIR` derives them again.",
            "A stdio client that starts the proxy again with the same options and --out gets a second session in the same"
                    + " run, and the loss is not repeated.",
            "Exit 0 when the run was recorded and judged, 1 when its history has a problem, 2 for bad input.",
            "Example, a stdio server in a client's configuration:",
            "  proxy --out /tmp/p --lose final-reply --nth 1 -- python3 server.py orders.db",
            "and an HTTP server on port 8080:",
            "  proxy --listen 9090 --upstream http://127.0.0.1:8080/mcp --calls 2 --out /tmp/p"
        })
public class ProxyCli implements Callable<Integer> {
    @Option(names = "--listen", paramLabel = "PORT", description = "Over HTTP: the port on 127.0.0.1 to listen on (0: any free one, printed).")
    Integer listen;

    @Option(names = "--upstream", paramLabel = "URL", description = "Over HTTP: the server's Streamable HTTP endpoint, on this machine.")
    String upstream;

    @Option(names = "--lose", paramLabel = "WHAT", description = "final-reply (default) or connection-after-commit.")
    String lose = "final-reply";

    @Option(names = "--nth", paramLabel = "N", description = "Lose the reply that completes the N-th tool call (default 1), counted over every session.")
    int nth = 1;

    @Option(names = "--calls", paramLabel = "N", description = "Stop once N tool calls have completed at the server (a lost one counts).")
    Integer calls;

    @Option(names = "--out", paramLabel = "DIR", description = "The run's folder: new, empty, or an earlier session's of the same options.")
    Path out;

    @Parameters(paramLabel = "SERVER COMMAND", arity = "0..*", description = "Over stdio: the server's command, after --.")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        ProxyOptions options;
        try {
            options = options();
        } catch (ProbeInputException e) {
            stderr().println(name() + ": " + e.getMessage());
            return 2;
        }
        boolean stdio = options.upstream() instanceof ProxyOptions.Stdio;
        PrintStream talk = stdio ? stderr() : stdout();
        ProxyCheck.Judgement[] judged = new ProxyCheck.Judgement[1];
        try {
            // The summary is printed here, once the run is sealed: after SIGTERM the JVM halts as soon as the runner
            // lets its shutdown hook return, so a line printed after run() returned could be lost.
            ProxyRunner.run(options, System.in, stdio ? new FileOutputStream(FileDescriptor.out) : null, folder -> {
                judged[0] = ProxyCheck.deriveAndWrite(folder);
                if (judged[0].document() != null) {
                    ProxyReport.write(folder);
                }
                talk.println("proxy " + judged[0].summary());
                judged[0].problems().forEach(p -> talk.println("problem " + p));
                talk.println("evidence " + options.out());
                talk.flush();
            }, endpoint -> {
                talk.println("listening " + endpoint);
                talk.flush();
            });
        } catch (ProbeInputException e) {
            stderr().println(name() + ": " + e.getMessage());
            stderr().flush();
            return 2;
        }
        return judged[0].ok() ? 0 : 1;
    }

    private ProxyOptions options() {
        boolean http = listen != null || upstream != null;
        if (http == !command.isEmpty()) {
            throw new ProbeInputException("name the server once: a command after -- (stdio), or --listen PORT --upstream URL (HTTP)");
        }
        ProxyOptions.Upstream where;
        if (http) {
            if (listen == null || upstream == null) {
                throw new ProbeInputException("over HTTP give both --listen PORT and --upstream URL");
            }
            URI url;
            try {
                url = new URI(upstream);
            } catch (URISyntaxException e) {
                throw new ProbeInputException("--upstream " + upstream + " is not a URL: " + e.getMessage());
            }
            where = new ProxyOptions.Http(listen, url);
        } else {
            where = new ProxyOptions.Stdio(command);
        }
        return new ProxyOptions(where, ProxyOptions.Loss.of(lose), nth, calls, folder(out));
    }

    /** The run's folder: {@code out}, or {@code proxy-<UTC time>} in the working directory. */
    protected Path folder(Path given) {
        return given != null ? given.toAbsolutePath().normalize() : Path.of("proxy-" + ZonedDateTime.now(ZoneOffset.UTC)
                .format(DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'"))).toAbsolutePath();
    }

    protected String name() {
        return "proxy";
    }

    protected PrintStream stdout() {
        return OUT;
    }

    protected PrintStream stderr() {
        return ERR;
    }

    private static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    private static final PrintStream ERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
}
