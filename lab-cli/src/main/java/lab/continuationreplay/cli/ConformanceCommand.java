package lab.continuationreplay.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.conformance.OfficialSuite;
import lab.continuationreplay.conformance.strict.StrictCheck;
import lab.continuationreplay.conformance.strict.StrictReport;
import lab.continuationreplay.conformance.strict.StrictTarget;
import lab.continuationreplay.conformance.strict.StrictTargetUnreachable;
import lab.continuationreplay.conformance.suite.ConformanceReport;
import lab.continuationreplay.conformance.suite.ConformanceRun;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.core.servers.ServerKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "conformance",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the official MCP conformance suite (@modelcontextprotocol/conformance " + OfficialSuite.VERSION + ", requirements "
                    + OfficialSuite.REQUIREMENTS + ", on the Node 22 that conformance/package.json pins) against the Java, TypeScript, Python and Go servers"
                    + " over Streamable HTTP with their conformance profile (the suite's fixtures beside the guarded tools; no"
                    + " bearer token, one fixed principal) and against the Java and TypeScript SDK clients through the lab's client drivers.",
            "Then the lab's strict MRTR checks on each server's profile (two bearer tokens, a 3 s state lifetime)."
                    + " With --strict --url URL, only the strict checks, against any server.",
            "Writes OUT/conformance.json, CONFORMANCE.md, report.html and the suite's own files per server and client."
                    + " Exit 0 only if every scored scenario passes or is an expected failure of its SDK"
                    + " (conformance/expected-failures/SDK.json), no expected failure passes, and no strict check fails."
                    + " See docs/conformance.md."
        })
final class ConformanceCommand implements Callable<Integer> {
    @Option(names = "--out", description = "Output folder (default: target/attempts/conformance-<UTC time>). Never overwritten.")
    Path out;

    @Option(names = "--sdk", split = ",", description = "The servers: java, typescript, python, go, rust, all or none (default: all).")
    List<String> sdks = List.of("all");

    @Option(names = "--client", split = ",", description = "The SDK clients: java, typescript, all or none (default: all).")
    List<String> clients = List.of("all");

    @Option(names = "--strict", description = "Run only the lab's strict MRTR checks, against the server at --url (any MCP"
            + " server with the suite's fixture tools, over Streamable HTTP). Writes OUT/strict.json; exit 1 if any check fails.")
    boolean strict;

    @Option(names = "--url", description = "With --strict: the server's MCP endpoint, e.g. http://127.0.0.1:3000/mcp.")
    String url;

    @Option(names = "--bearer", description = "With --strict: a bearer token to send (never logged or written).")
    String bearer;

    @Option(names = "--other-bearer", description = "With --strict: a second principal's token, for the other-principal check.")
    String otherBearer;

    @Option(names = "--state-ttl", paramLabel = "SECONDS", description = "With --strict: the server's request-state lifetime;"
            + " the expiry check waits it out (without it, that check is not run).")
    Long stateTtl;

    /** What {@code --sdk all} and {@code --client all} mean: the servers with a conformance profile, the SDK clients. */
    private static final List<String> SERVERS = lab.continuationreplay.history.Sdk.labels();
    /** The clients the suite drives: the two with a driver for its scenarios ({@code SuiteClientMain}, ts-client). */
    private static final List<String> CLIENTS = List.of(lab.continuationreplay.history.Sdk.JAVA.label(),
            lab.continuationreplay.history.Sdk.TYPESCRIPT.label());

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        if (strict) {
            return strict(home);
        }
        if (url != null || bearer != null || otherBearer != null || stateTtl != null) {
            throw new IllegalArgumentException("--url, --bearer, --other-bearer and --state-ttl go with --strict");
        }
        List<ServerKind> servers = new ArrayList<>();
        for (String label : expand(sdks, SERVERS)) {
            ServerKind server = ServerKind.fromLabel(label);
            if (server == ServerKind.UNGUARDED) {
                throw new IllegalArgumentException("the unguarded control has no conformance profile");
            }
            servers.add(server);
        }
        List<ClientKind> clientKinds = expand(clients, CLIENTS).stream().map(ClientKind::fromLabel).toList();
        if (servers.isEmpty() && clientKinds.isEmpty()) {
            throw new IllegalArgumentException("--sdk none and --client none leave nothing to run");
        }
        OfficialSuite suite = new OfficialSuite(home);
        suite.entry();
        Path folder = OutputFolder.of(out, home, "conformance");
        OutputFolder.requireNewOrEmpty(folder);
        Files.createDirectories(folder);
        ConformanceRun.Result result = ConformanceRun.run(new ConformanceRun.Options(home, folder, servers, clientKinds,
                LabHome.labJar(home).toString(), Streams.stderr()));
        ConformanceReport.write(folder, result, nodeVersion(suite));
        ConformanceReport.summary(result).forEach(Streams.stdout()::println);
        Streams.stdout().println("evidence    " + folder);
        Streams.stdout().flush();
        return result.ok() ? 0 : 1;
    }

    private Integer strict(Path home) throws Exception {
        if (url == null) {
            throw new IllegalArgumentException("--strict needs --url, the MCP endpoint of the server to check");
        }
        StrictTarget target = StrictTarget.of(url, bearer, otherBearer, stateTtl);
        Path folder = OutputFolder.of(out, home, "strict");
        OutputFolder.requireNewOrEmpty(folder);
        StrictReport report;
        try {
            report = StrictCheck.run(target, folder, Streams.stdout());
        } catch (StrictTargetUnreachable e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        Streams.stdout().println("strict      " + report.summary() + (report.failed() ? "" : "; no check failed"));
        Streams.stdout().println("evidence    " + folder);
        Streams.stdout().flush();
        return report.exitStatus();
    }

    private static List<String> expand(List<String> labels, List<String> all) {
        if (labels.contains("none")) {
            if (labels.size() > 1) {
                throw new IllegalArgumentException("'none' cannot be combined with other names");
            }
            return List.of();
        }
        return labels.contains("all") ? all : labels;
    }

    private static String nodeVersion(OfficialSuite suite) throws Exception {
        Exec.Result version = Exec.command(List.of(suite.node().toString(), "--version")).run(java.time.Duration.ofSeconds(30));
        return version.output().strip();
    }
}
