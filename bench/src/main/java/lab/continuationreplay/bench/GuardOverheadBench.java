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
import lab.continuationreplay.core.servers.JvmLifetime;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;

/**
 * Benchmark 1 (guard overhead over stdio) and the samples of benchmark 6 (peak RSS). The three servers compared run
 * at once, warm (started, opened, given warm-up calls), and are timed in interleaved rounds: in each round every server
 * makes the same number of calls, in an order rotated from round to round, so that a drift of the machine (its fsync
 * speed above all) lands on both sides of a ratio. Each call is a round one ({@code input_required} with a
 * {@code requestState}) and the continuation that commits, with a distinct operation id, over real stdio, on a real
 * SQLite file with durable commits. A goal's ratio is the median of the rounds' ratios, with their spread. The raw
 * bridge gets the same {@code apply} the fixture would send, as JSON lines.
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

    /** Rounds of the interleaved measurement: each goal's ratio is the median round's. */
    static final int ROUNDS = 5;

    static Outcome run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("guard-overhead"));
        Map<String, Double> rss = new LinkedHashMap<>();
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        List<String> notes = new ArrayList<>();
        List<ServerKind> kinds = List.of(ServerKind.JAVA, ServerKind.UNGUARDED, ServerKind.TYPESCRIPT);
        int perRound = Math.max(1, plan.timedCalls() / ROUNDS);
        Map<ServerKind, Timed> timed = new LinkedHashMap<>();
        List<Double> guardRounds = new ArrayList<>();
        List<Double> typescriptRounds = new ArrayList<>();
        try {
            // All three run at once, so the machine they share is the same for each when its speed drifts.
            for (ServerKind kind : kinds) {
                timed.put(kind, Timed.start(plan, kind, work, perRound * ROUNDS));
            }
            for (Timed series : timed.values()) {
                series.calls(plan.warmupCalls(), false);
            }
            timeRounds(kinds, timed, perRound, guardRounds, typescriptRounds);
            for (Timed series : timed.values()) {
                series.sampleRss(rss);
            }
        } finally {
            for (Timed series : timed.values()) {
                series.close();
            }
        }
        Map<ServerKind, Series> results = new LinkedHashMap<>();
        for (Timed series : timed.values()) {
            results.put(series.kind, series.finish());
        }
        Series guarded = results.get(ServerKind.JAVA);
        Series unguarded = results.get(ServerKind.UNGUARDED);
        Series fixture = results.get(ServerKind.TYPESCRIPT);
        progress.printf("bench      guard overhead: java guarded p50 %.3f ms, unguarded %.3f ms, typescript fixture %.3f ms"
                + " (%d interleaved rounds)%n", guarded.continuation().p50Ms(), unguarded.continuation().p50Ms(),
                fixture.continuation().p50Ms(), ROUNDS);
        Series bridge = rawBridge(plan, work, rss);
        progress.printf("bench      guard overhead: raw bridge p50 %.3f ms%n", bridge.continuation().p50Ms());
        figures.put("timed_calls", perRound * ROUNDS);
        figures.put("rounds", ROUNDS);
        figures.put("warmup_calls", plan.warmupCalls());
        figures.set("java_guarded", guarded.toJson());
        figures.set("java_unguarded", unguarded.toJson());
        figures.set("typescript_fixture", fixture.toJson());
        figures.set("typescript_raw_bridge", bridge.toJson());
        List<Goal> goals = List.of(
                Goal.atMost("guard_overhead_java", "Java guarded/unguarded continuation p50 <= 1.25",
                        "java guarded p50", guarded.continuation().p50Ms(), "java unguarded p50", unguarded.continuation().p50Ms(),
                        "ms", 1.25).withRounds(guardRounds),
                Goal.atMost("typescript_vs_java", "TS fixture continuation p50 <= 1.5x the Java server's",
                        "typescript fixture p50", fixture.continuation().p50Ms(), "java guarded p50", guarded.continuation().p50Ms(),
                        "ms", 1.5).withRounds(typescriptRounds));
        BenchResult result = new BenchResult("guard_overhead", "Guard overhead over stdio", method(plan, perRound), figures, goals,
                notes);
        return new Outcome(result, rss);
    }

    /** The timed rounds; each round's p50 ratios (guarded/unguarded, TypeScript/Java) are added to the two lists. */
    private static void timeRounds(List<ServerKind> kinds, Map<ServerKind, Timed> timed, int perRound, List<Double> guardRounds,
            List<Double> typescriptRounds) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Map<ServerKind, Double> p50 = new LinkedHashMap<>();
            for (int k = 0; k < kinds.size(); k++) {
                // Rotated each round: no series is always first after another's burst of fsyncs.
                Timed series = timed.get(kinds.get((k + round) % kinds.size()));
                p50.put(series.kind, series.calls(perRound, true));
            }
            guardRounds.add(p50.get(ServerKind.JAVA) / p50.get(ServerKind.UNGUARDED));
            typescriptRounds.add(p50.get(ServerKind.TYPESCRIPT) / p50.get(ServerKind.JAVA));
        }
    }

    private static String method(BenchPlan plan, int perRound) {
        return "three warm servers over real stdio at once (raw JSON-RPC lines, transcribed), " + ROUNDS + " rounds of " + perRound
                + " calls each, the servers in rotated order within a round, after " + plan.warmupCalls()
                + " warm-up calls each; each call is round one + the continuation that commits with a distinct operation"
                + " id (WAL, synchronous FULL); a goal's ratio is the median of the rounds' p50 ratios; the raw bridge"
                + " gets the fixture's apply line directly";
    }

    /** One server under measurement, kept running across the rounds. */
    private static final class Timed implements AutoCloseable {
        final ServerKind kind;
        private final ServerProcess server;
        private final Path database;
        private final boolean guarded;
        private final String tool;
        private final long[] roundOne;
        private final long[] continuation;
        private int sent;
        private int timed;
        private long timedWall;

        private Timed(ServerKind kind, ServerProcess server, Path database, int timedCalls) {
            this.kind = kind;
            this.server = server;
            this.database = database;
            this.guarded = kind != ServerKind.UNGUARDED;
            this.tool = guarded ? ToolClient.CREATE : "create_issue";
            this.roundOne = new long[timedCalls];
            this.continuation = new long[timedCalls];
        }

        static Timed start(BenchPlan plan, ServerKind kind, Path work, int timedCalls) throws Exception {
            Path folder = Files.createDirectories(work.resolve(kind.label()));
            Path database = folder.resolve("store.sqlite3");
            Map<String, String> environment = new LinkedHashMap<>(WireSettings.matrix(database, "alice").environment());
            // Warm, long-lived servers as deployed: full tiered compilation (JvmLifetime.LONG), not a case's C1 only.
            environment.putAll(kind.environment(plan.home(), JvmLifetime.LONG));
            ServerProcess server = ServerProcess.start(kind.command(plan.home(), JvmLifetime.LONG), environment, folder.resolve("server.transcript.log"),
                    folder.resolve("server.stderr.log"), ServerProcess.READ_TIMEOUT);
            server.request("tools/list", JsonNodeFactory.instance.objectNode());
            return new Timed(kind, server, database, timedCalls);
        }

        /** {@code n} calls; when timed, their samples are kept and the p50 of their continuations is returned (ms). */
        double calls(int n, boolean keep) throws Exception {
            long[] these = new long[n];
            long wallStart = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ObjectNode arguments = guarded
                        ? JsonNodeFactory.instance.objectNode().put("operation_id", "bench-" + kind.label() + "-" + sent)
                                .put("title", "bench").put("mode", "atomic")
                        : JsonNodeFactory.instance.objectNode().put("title", "bench");
                sent++;
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
                these[i] = t2 - t1;
                if (keep) {
                    roundOne[timed] = t1 - t0;
                    continuation[timed] = t2 - t1;
                    timed++;
                }
            }
            if (keep) {
                timedWall += System.nanoTime() - wallStart;
            }
            return LatencyStats.of(these, 0).p50Ms();
        }

        void sampleRss(Map<String, Double> rss) {
            rss.put(kind.label() + (kind == ServerKind.TYPESCRIPT ? "_fixture_node" : "_server"), PeakRss.mib(server.pid()));
            if (kind == ServerKind.TYPESCRIPT) {
                ProcessHandle.of(server.pid()).flatMap(p -> p.children().findFirst())
                        .ifPresent(child -> rss.put("typescript_fixture_bridge", PeakRss.mib(child.pid())));
            }
        }

        /** The pooled samples of every round, after the row count shows each call committed exactly once. */
        Series finish() throws Exception {
            long issues = StoreRows.count(database, "issues");
            if (issues != sent) {
                throw new IllegalStateException(kind.label() + ": " + issues + " issue rows after " + sent + " committed calls");
            }
            return new Series(LatencyStats.of(continuation, 0), LatencyStats.of(roundOne, 0), timed / (timedWall / 1e9));
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
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
