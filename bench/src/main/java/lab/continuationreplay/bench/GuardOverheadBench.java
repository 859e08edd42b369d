package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;

/**
 * Benchmark 1 (guard overhead over stdio) and the samples of benchmark 6 (peak RSS). Each server runs warm: started,
 * opened, given warm-up calls, then timed on {@code timedCalls} calls, each a round one ({@code input_required} with
 * a {@code requestState}) and the continuation that commits, with a distinct operation id, over real stdio, on a real
 * SQLite file with durable commits. The raw bridge gets the same {@code apply} the fixture would send, as JSON lines.
 */
final class GuardOverheadBench {
    /** Benchmark 1's result and the peak RSS samples taken at its end (MiB, by process role). */
    record Outcome(BenchResult result, Map<String, Double> peakRssMib) {}

    private record Series(LatencyStats continuation, LatencyStats roundOne, double fullCallsPerSecond) {
        ObjectNode toJson() {
            ObjectNode json = JsonNodeFactory.instance.objectNode();
            json.set("continuation", continuation.toJson());
            if (roundOne != null) {
                json.set("round_one", roundOne.toJson());
            }
            json.put("full_calls_per_s", Round.of(fullCallsPerSecond));
            return json;
        }
    }

    private GuardOverheadBench() {}

    static Outcome run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("guard-overhead"));
        Map<String, Double> rss = new LinkedHashMap<>();
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        List<String> notes = new ArrayList<>();
        Series guarded = mcp(plan, ServerKind.JAVA, work, rss, notes);
        progress.printf("bench      guard overhead: java guarded p50 %.3f ms%n", guarded.continuation().p50Ms());
        Series unguarded = mcp(plan, ServerKind.UNGUARDED, work, rss, notes);
        progress.printf("bench      guard overhead: java unguarded p50 %.3f ms%n", unguarded.continuation().p50Ms());
        Series fixture = mcp(plan, ServerKind.TYPESCRIPT, work, rss, notes);
        progress.printf("bench      guard overhead: typescript fixture p50 %.3f ms%n", fixture.continuation().p50Ms());
        Series bridge = rawBridge(plan, work, rss);
        progress.printf("bench      guard overhead: raw bridge p50 %.3f ms%n", bridge.continuation().p50Ms());
        figures.put("timed_calls", plan.timedCalls());
        figures.put("warmup_calls", plan.warmupCalls());
        figures.set("java_guarded", guarded.toJson());
        figures.set("java_unguarded", unguarded.toJson());
        figures.set("typescript_fixture", fixture.toJson());
        figures.set("typescript_raw_bridge", bridge.toJson());
        List<Goal> goals = List.of(
                Goal.atMost("guard_overhead_java", "Java guarded/unguarded continuation p50 <= 1.25",
                        "java guarded p50", guarded.continuation().p50Ms(), "java unguarded p50", unguarded.continuation().p50Ms(),
                        "ms", 1.25),
                Goal.atMost("typescript_vs_java", "TS fixture continuation p50 <= 2x the Java server's",
                        "typescript fixture p50", fixture.continuation().p50Ms(), "java guarded p50", guarded.continuation().p50Ms(),
                        "ms", 2.0));
        BenchResult result = new BenchResult("guard_overhead", "Guard overhead over stdio",
                "warm servers over real stdio (raw JSON-RPC lines, transcribed), " + plan.timedCalls()
                        + " timed calls with distinct operation ids after " + plan.warmupCalls()
                        + " warm-up calls; each call is round one + the continuation that commits (WAL, synchronous FULL);"
                        + " the raw bridge gets the fixture's apply line directly",
                figures, goals, notes);
        return new Outcome(result, rss);
    }

    private static Series mcp(BenchPlan plan, ServerKind kind, Path work, Map<String, Double> rss, List<String> notes)
            throws Exception {
        Path folder = Files.createDirectories(work.resolve(kind.label()));
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        boolean guarded = kind != ServerKind.UNGUARDED;
        String tool = guarded ? ToolClient.CREATE : "create_issue";
        int total = plan.warmupCalls() + plan.timedCalls();
        long[] roundOne = new long[plan.timedCalls()];
        long[] continuation = new long[plan.timedCalls()];
        long wallStart = 0;
        long wall;
        Map<String, String> environment = new LinkedHashMap<>(settings.environment());
        environment.putAll(kind.environment(plan.home()));
        try (ServerProcess server = ServerProcess.start(kind.command(plan.home()), environment,
                folder.resolve("server.transcript.log"), folder.resolve("server.stderr.log"), ServerProcess.READ_TIMEOUT)) {
            server.request("tools/list", JsonNodeFactory.instance.objectNode());
            for (int i = 0; i < total; i++) {
                if (i == plan.warmupCalls()) {
                    wallStart = System.nanoTime();
                }
                ObjectNode arguments = guarded
                        ? JsonNodeFactory.instance.objectNode().put("operation_id", "bench-" + kind.label() + "-" + i)
                                .put("title", "bench").put("mode", "atomic")
                        : JsonNodeFactory.instance.objectNode().put("title", "bench");
                long t0 = System.nanoTime();
                Reply first = new Reply(server.callTool(tool, arguments, null, null));
                long t1 = System.nanoTime();
                if (!first.inputRequired() || first.requestState() == null) {
                    throw new IllegalStateException(kind.label() + ": round one did not ask for input: " + first.raw());
                }
                Reply committed = new Reply(server.callTool(tool, arguments, ToolClient.accepted("alpha"), first.requestState()));
                long t2 = System.nanoTime();
                if (committed.refused() || committed.inputRequired()) {
                    throw new IllegalStateException(kind.label() + ": the continuation did not commit: " + committed.raw());
                }
                if (i >= plan.warmupCalls()) {
                    roundOne[i - plan.warmupCalls()] = t1 - t0;
                    continuation[i - plan.warmupCalls()] = t2 - t1;
                }
            }
            wall = System.nanoTime() - wallStart;
            rss.put(kind.label() + (kind == ServerKind.TYPESCRIPT ? "_fixture_node" : "_server"), PeakRss.mib(server.pid()));
            if (kind == ServerKind.TYPESCRIPT) {
                ProcessHandle.of(server.pid()).flatMap(p -> p.children().findFirst())
                        .ifPresent(child -> rss.put("typescript_fixture_bridge", PeakRss.mib(child.pid())));
            }
        }
        long issues = StoreRows.count(database, "issues");
        if (issues != total) {
            throw new IllegalStateException(kind.label() + ": " + issues + " issue rows after " + total + " committed calls");
        }
        return new Series(LatencyStats.of(continuation, 0), LatencyStats.of(roundOne, 0), plan.timedCalls() / (wall / 1e9));
    }

    private static Series rawBridge(BenchPlan plan, Path work, Map<String, Double> rss) throws Exception {
        Path folder = Files.createDirectories(work.resolve("raw-bridge"));
        WireSettings settings = WireSettings.matrix(folder.resolve("store.sqlite3"), "alice");
        int total = plan.warmupCalls() + plan.timedCalls();
        long[] apply = new long[plan.timedCalls()];
        long wallStart = 0;
        try (RawBridge bridge = RawBridge.start(plan.home(), settings, folder.resolve("bridge.stderr.log"))) {
            for (int i = 0; i < total; i++) {
                if (i == plan.warmupCalls()) {
                    wallStart = System.nanoTime();
                }
                String line = RawBridge.apply(settings, "bench-raw-bridge-" + i, "bench", "alpha");
                long t0 = System.nanoTime();
                bridge.call(line);
                if (i >= plan.warmupCalls()) {
                    apply[i - plan.warmupCalls()] = System.nanoTime() - t0;
                }
            }
            long wall = System.nanoTime() - wallStart;
            rss.put("raw_bridge", PeakRss.mib(bridge.pid()));
            return new Series(LatencyStats.of(apply, 0), null, plan.timedCalls() / (wall / 1e9));
        }
    }
}
