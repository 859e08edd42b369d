package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.cases.ReplicaCaseId;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.checker.NetworkCheck;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.replicas.ReplicasRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "replicas",
        mixinStandardHelpOptions = true,
        description = {
            "Servers as replicas on separate container hosts: a PostgreSQL container (Debian's package) and replica"
                    + " containers of the Java, TypeScript, Python, Go and Rust servers, each at its own address on an internal Docker"
                    + " network the run creates (10.231.7.0/24, no address on this host) and removes. Cells: a lost reply"
                    + " recovered on the other replica (r1), one continuation to both at once (r2), a replica whose clock"
                    + " runs 30 s ahead (r3), a replica cut off from the database mid-commit (r4), the database killed"
                    + " between commit and reply (r5), and across SDKs (x1, x2).",
            "Writes OUT/network.json (what a container could reach), OUT/replicas-<sdk>/ and OUT/replicas-cross/ (the"
                    + " cells' history, judged by the checker alone) and OUT/postgres.log. Needs a Docker engine"
                    + " (docs/replicas.md). Exit 0 only if the network is isolated and every cell passes."
        })
final class ReplicasCommand implements Callable<Integer> {
    @Option(names = "--out", description = "Output folder (default: target/attempts/replicas-<UTC time>); must be new or empty.")
    Path out;

    @Option(names = "--sdk", split = ",", description = "java, typescript, python, go, rust or all (default: all): whose replicas play the r cells.")
    List<String> sdks = List.of("all");

    @Option(names = "--cells", split = ",", paramLabel = "CELL", description = "Only these cells (r1..r5, x1, x2; default: all).")
    List<String> cells;

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        List<ServerKind> kinds = new ArrayList<>();
        for (String sdk : sdks) {
            if (sdk.equals("all")) {
                kinds.addAll(ReplicasRunner.SDKS);
            } else {
                kinds.add(ServerKind.fromLabel(sdk));
            }
        }
        if (cells != null) {
            cells.forEach(ReplicaCaseId::of);
        }
        Path folder = OutputFolder.of(out, home, "replicas");
        OutputFolder.requireNewOrEmpty(folder);
        ReplicasRunner.Ran ran = ReplicasRunner.run(home, folder, kinds.stream().distinct().toList(), true, cells, Streams.stderr());
        ran.said().forEach(line -> Streams.stderr().println("replicas: " + line));
        boolean ok = true;
        List<String> network = NetworkCheck.problems(folder);
        ok &= network.isEmpty();
        Streams.stdout().println("network   " + (network.isEmpty()
                ? "isolated: the containers reached the database and nothing else (network.json)" : "NOT ISOLATED " + network));
        for (String attempt : ran.attempts()) {
            Verdict verdict = AttemptCheck.deriveAndWrite(folder.resolve(attempt));
            ok &= verdict.ok();
            for (JsonNode record : verdict.records()) {
                Streams.stdout().printf("%-20s %-3s %-50s %-5s %s%s%n", attempt, record.path("case_id").asText(),
                        record.path("name").asText(), record.path("status").asText(), record.path("outcome"),
                        record.path("violations").isEmpty() ? "" : " " + record.path("violations"));
            }
            Streams.stdout().printf("%-20s requested %d, executed %d, passed %d; checker (history only): %s%n", attempt,
                    verdict.requested(), verdict.executed(), verdict.passed(), verdict.problems().isEmpty() ? "no problem" : verdict.problems());
        }
        if (ran.attempts().isEmpty()) {
            ok = false;
            Streams.stdout().println("no cell was asked for");
        }
        Streams.stdout().println("evidence  " + folder);
        Streams.stdout().flush();
        return ok ? 0 : 1;
    }
}
