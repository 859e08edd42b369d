package lab.continuationreplay.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.conformance.OfficialSuite;
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
                    + OfficialSuite.REQUIREMENTS + ", on the Node 22 that conformance/package.json pins) against both lab servers"
                    + " over Streamable HTTP with their conformance profile (the suite's fixtures beside the guarded tools; no"
                    + " bearer token, one fixed principal) and against both SDK clients through the lab's client drivers.",
            "Writes OUT/conformance.json, CONFORMANCE.md, report.html and the suite's own files per server and client."
                    + " Exit 0 only if every scored scenario passes or is an expected failure of its SDK"
                    + " (conformance/expected-failures/SDK.json), and no expected failure passes. See docs/conformance.md."
        })
final class ConformanceCommand implements Callable<Integer> {
    @Option(names = "--out", description = "Output folder (default: target/attempts/conformance-<UTC time>). Never overwritten.")
    Path out;

    @Option(names = "--sdk", split = ",", description = "The servers: java, typescript, all or none (default: all).")
    List<String> sdks = List.of("all");

    @Option(names = "--client", split = ",", description = "The SDK clients: java, typescript, all or none (default: all).")
    List<String> clients = List.of("all");

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        List<ServerKind> servers = new ArrayList<>();
        for (String label : expand(sdks)) {
            ServerKind server = ServerKind.fromLabel(label);
            if (server == ServerKind.UNGUARDED) {
                throw new IllegalArgumentException("the unguarded control has no conformance profile");
            }
            servers.add(server);
        }
        List<ClientKind> clientKinds = expand(clients).stream().map(ClientKind::fromLabel).toList();
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

    private static List<String> expand(List<String> labels) {
        if (labels.contains("none")) {
            if (labels.size() > 1) {
                throw new IllegalArgumentException("'none' cannot be combined with other names");
            }
            return List.of();
        }
        return labels.contains("all") ? List.of("java", "typescript") : labels;
    }

    private static String nodeVersion(OfficialSuite suite) throws Exception {
        Exec.Result version = Exec.command(List.of(suite.node().toString(), "--version")).run(java.time.Duration.ofSeconds(30));
        return version.output().strip();
    }
}
