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

    /**
     * One warm server: an SDK's guarded server, or that SDK's unguarded control (the same SDK server and tool shape,
     * writing through the same bridge, without the guard's apply-once). {@code figure} names its figures in bench.json.
     */
    private record Contestant(ServerKind sdk, boolean control, String figure) {
        String label() {
            return sdk.label() + (control ? "-unguarded" : "");
        }

        List<String> command(java.nio.file.Path home) {
            return control ? sdk.controlCommand(home, JvmLifetime.LONG) : sdk.command(home, JvmLifetime.LONG);
        }
    }

    /** Java's pair and the TypeScript fixture keep their figure names; the other SDKs' pairs are named alike. */
    private static final List<Contestant> CONTESTANTS = List.of(
            new Contestant(ServerKind.JAVA, false, "java_guarded"), new Contestant(ServerKind.JAVA, true, "java_unguarded"),
            new Contestant(ServerKind.TYPESCRIPT, false, "typescript_fixture"),
            new Contestant(ServerKind.TYPESCRIPT, true, "typescript_unguarded"),
            new Contestant(ServerKind.PYTHON, false, "python_guarded"), new Contestant(ServerKind.PYTHON, true, "python_unguarded"),
            new Contestant(ServerKind.GO, false, "go_guarded"), new Contestant(ServerKind.GO, true, "go_unguarded"));

    private GuardOverheadBench() {}

    /** Rounds of the interleaved measurement: each goal's ratio is the median round's. */
    static final int ROUNDS = 5;

    static Outcome run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("guard-overhead"));
        Map<String, Double> rss = new LinkedHashMap<>();
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        List<String> notes = new ArrayList<>();
        int perRound = Math.max(1, plan.timedCalls() / ROUNDS);
        Map<Contestant, Timed> timed = new LinkedHashMap<>();
        Map<ServerKind, List<Double>> guardRounds = new LinkedHashMap<>();
        List<Double> typescriptRounds = new ArrayList<>();
        try {
            // All run at once, so the machine they share is the same for each when its speed drifts.
            for (Contestant contestant : CONTESTANTS) {
                timed.put(contestant, Timed.start(plan, contestant, work, perRound * ROUNDS));
            }
            for (Timed series : timed.values()) {
                series.calls(plan.warmupCalls(), false);
            }
            timeRounds(timed, perRound, guardRounds, typescriptRounds);
            for (Timed series : timed.values()) {
                series.sampleRss(rss);
            }
        } finally {
            for (Timed series : timed.values()) {
                series.close();
            }
        }
        Map<String, Series> results = new LinkedHashMap<>();
        for (Timed series : timed.values()) {
            results.put(series.contestant.figure(), series.finish());
        }
        Series guarded = results.get("java_guarded");
        Series fixture = results.get("typescript_fixture");
        for (ServerKind sdk : ServerKind.SDKS) {
            Series mine = results.get(figure(sdk, false));
            Series control = results.get(figure(sdk, true));
            progress.printf("bench      guard overhead: %s guarded p50 %.3f ms, its unguarded control %.3f ms%n", sdk.label(),
                    mine.continuation().p50Ms(), control.continuation().p50Ms());
        }
        progress.printf("bench      guard overhead: %d servers at once, %d interleaved rounds%n", CONTESTANTS.size(), ROUNDS);
        Series bridge = rawBridge(plan, work, rss);
        progress.printf("bench      guard overhead: raw bridge p50 %.3f ms%n", bridge.continuation().p50Ms());
        figures.put("timed_calls", perRound * ROUNDS);
        figures.put("rounds", ROUNDS);
        figures.put("warmup_calls", plan.warmupCalls());
        results.forEach((name, series) -> figures.set(name, series.toJson()));
        figures.set("typescript_raw_bridge", bridge.toJson());
        List<Goal> goals = new ArrayList<>();
        for (ServerKind sdk : ServerKind.SDKS) {
            String name = sdk.sdk().displayName();
            goals.add(Goal.atMost("guard_overhead_" + sdk.label(), name + " guarded/unguarded continuation p50 <= 1.25",
                    sdk.label() + " guarded p50", results.get(figure(sdk, false)).continuation().p50Ms(),
                    sdk.label() + " unguarded p50", results.get(figure(sdk, true)).continuation().p50Ms(), "ms", 1.25)
                    .withRounds(guardRounds.get(sdk)));
        }
        goals.add(Goal.atMost("typescript_vs_java", "TS fixture continuation p50 <= 1.5x the Java server's",
                "typescript fixture p50", fixture.continuation().p50Ms(), "java guarded p50", guarded.continuation().p50Ms(),
                "ms", 1.5).withRounds(typescriptRounds));
        BenchResult result = new BenchResult("guard_overhead", "Guard overhead over stdio", method(plan, perRound), figures, goals,
                notes);
        return new Outcome(result, rss);
    }

    /** The figure name of {@code sdk}'s guarded server or its control. */
    private static String figure(ServerKind sdk, boolean control) {
        return CONTESTANTS.stream().filter(c -> c.sdk() == sdk && c.control() == control).findFirst().orElseThrow().figure();
    }

    /** The timed rounds; each round's p50 ratios (each SDK's guarded/unguarded, TypeScript/Java) are added to the lists. */
    private static void timeRounds(Map<Contestant, Timed> timed, int perRound, Map<ServerKind, List<Double>> guardRounds,
            List<Double> typescriptRounds) throws Exception {
        List<Contestant> order = new ArrayList<>(timed.keySet());
        for (int round = 0; round < ROUNDS; round++) {
            Map<String, Double> p50 = new LinkedHashMap<>();
            for (int k = 0; k < order.size(); k++) {
                // Rotated each round: no series is always first after another's burst of fsyncs.
                Timed series = timed.get(order.get((k + round) % order.size()));
                p50.put(series.contestant.figure(), series.calls(perRound, true));
            }
            for (ServerKind sdk : ServerKind.SDKS) {
                guardRounds.computeIfAbsent(sdk, k -> new ArrayList<>()).add(p50.get(figure(sdk, false)) / p50.get(figure(sdk, true)));
            }
            typescriptRounds.add(p50.get("typescript_fixture") / p50.get("java_guarded"));
        }
    }

    private static String method(BenchPlan plan, int perRound) {
        return "eight warm servers over real stdio at once (each SDK's guarded server and its unguarded control) (raw JSON-RPC lines, transcribed), " + ROUNDS + " rounds of " + perRound
                + " calls each, the servers in rotated order within a round, after " + plan.warmupCalls()
                + " warm-up calls each; each call is round one + the continuation that commits with a distinct operation"
                + " id (WAL, synchronous FULL); a goal's ratio is the median of the rounds' p50 ratios; the raw bridge"
                + " gets the fixture's apply line directly";
    }

    /** One server under measurement, kept running across the rounds. */
    private static final class Timed implements AutoCloseable {
        final Contestant contestant;
        private final ServerProcess server;
        private final Path database;
        private final boolean guarded;
        private final String tool;
        private final long[] roundOne;
        private final long[] continuation;
        private int sent;
        private int timed;
        private long timedWall;

        private Timed(Contestant contestant, ServerProcess server, Path database, int timedCalls) {
            this.contestant = contestant;
            this.server = server;
            this.database = database;
            this.guarded = !contestant.control();
            this.tool = guarded ? ToolClient.CREATE : "create_issue";
            this.roundOne = new long[timedCalls];
            this.continuation = new long[timedCalls];
        }

        static Timed start(BenchPlan plan, Contestant contestant, Path work, int timedCalls) throws Exception {
            Path folder = Files.createDirectories(work.resolve(contestant.label()));
            Path database = folder.resolve("store.sqlite3");
            Map<String, String> environment = new LinkedHashMap<>(WireSettings.matrix(database, "alice").environment());
            // Warm, long-lived servers as deployed: full tiered compilation (JvmLifetime.LONG), not a case's C1 only.
            // A control reaches the ledger as its SDK's guarded server does (a fixture through the bridge).
            environment.putAll(contestant.sdk().environment(plan.home(), JvmLifetime.LONG));
            ServerProcess server = ServerProcess.start(contestant.command(plan.home()), environment, folder.resolve("server.transcript.log"),
                    folder.resolve("server.stderr.log"), ServerProcess.READ_TIMEOUT);
            server.request("tools/list", JsonNodeFactory.instance.objectNode());
            return new Timed(contestant, server, database, timedCalls);
        }

        /** {@code n} calls; when timed, their samples are kept and the p50 of their continuations is returned (ms). */
        double calls(int n, boolean keep) throws Exception {
            long[] these = new long[n];
            long wallStart = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ObjectNode arguments = guarded
                        ? JsonNodeFactory.instance.objectNode().put("operation_id", "bench-" + contestant.label() + "-" + sent)
                                .put("title", "bench").put("mode", "atomic")
                        : JsonNodeFactory.instance.objectNode().put("title", "bench");
                sent++;
                long t0 = System.nanoTime();
                Reply first = new Reply(server.callTool(tool, arguments, null, null));
                long t1 = System.nanoTime();
                if (!first.inputRequired() || first.requestState() == null) {
                    throw new IllegalStateException(contestant.label() + ": round one did not ask for input: " + first.raw());
                }
                Reply committed = new Reply(server.callTool(tool, arguments, ToolClient.accepted("alpha"), first.requestState()));
                long t2 = System.nanoTime();
                if (committed.refused() || committed.inputRequired()) {
                    throw new IllegalStateException(contestant.label() + ": the continuation did not commit: " + committed.raw());
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

        /** Benchmark 6's roles: the Java servers, and the TypeScript fixture with its bridge. */
        void sampleRss(Map<String, Double> rss) {
            ServerKind sdk = contestant.sdk();
            if (sdk == ServerKind.JAVA) {
                rss.put((contestant.control() ? ServerKind.UNGUARDED.label() : sdk.label()) + "_server", PeakRss.mib(server.pid()));
            } else if (sdk == ServerKind.TYPESCRIPT && !contestant.control()) {
                rss.put("typescript_fixture_node", PeakRss.mib(server.pid()));
                ProcessHandle.of(server.pid()).flatMap(p -> p.children().findFirst())
                        .ifPresent(child -> rss.put("typescript_fixture_bridge", PeakRss.mib(child.pid())));
            }
        }

        /** The pooled samples of every round, after the row count shows each call committed exactly once. */
        Series finish() throws Exception {
            long issues = StoreRows.count(database, "issues");
            if (issues != sent) {
                throw new IllegalStateException(contestant.label() + ": " + issues + " issue rows after " + sent + " committed calls");
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
