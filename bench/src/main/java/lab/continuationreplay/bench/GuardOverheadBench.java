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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.servers.JvmLifetime;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.history.Layout;

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

    record Series(LatencyStats continuation, LatencyStats roundOne, double fullCallsPerSecond) {
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
    private record Contestant(ServerKind sdk, boolean control, String stdioFigure, Transport transport) {
        Contestant(ServerKind sdk, boolean control, String stdioFigure) {
            this(sdk, control, stdioFigure, Transport.STDIO);
        }

        Contestant over(Transport other) {
            return new Contestant(sdk, control, stdioFigure, other);
        }

        String figure() {
            return transport == Transport.STDIO ? stdioFigure : stdioFigure + "_" + transport.label();
        }

        String label() {
            return sdk.label() + (control ? "-unguarded" : "") + (transport == Transport.STDIO ? "" : "-" + transport.label());
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
            new Contestant(ServerKind.GO, false, "go_guarded"), new Contestant(ServerKind.GO, true, "go_unguarded"),
            new Contestant(ServerKind.RUST, false, "rust_guarded"), new Contestant(ServerKind.RUST, true, "rust_unguarded"));

    private GuardOverheadBench() {}

    /** Rounds of the interleaved measurement: each goal's ratio is the median round's. */
    static final int ROUNDS = 5;
    /** Concurrent clients of the HTTP bursts (row 3: guarded commits/s against the same SDK's control). */
    static final int BURST_CLIENTS = 16;

    static Outcome run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("guard-overhead"));
        Map<String, Double> rss = new LinkedHashMap<>();
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        List<String> notes = new ArrayList<>();
        int perRound = Math.max(1, plan.timedCalls() / ROUNDS);
        Phase stdio = stablePhase(plan, CONTESTANTS, work, perRound, rss, null, notes, progress);
        Phase http;
        try (BearerCredentials credentials = new BearerCredentials()) {
            http = stablePhase(plan, CONTESTANTS.stream().map(c -> c.over(Transport.HTTP)).toList(), work, perRound, rss, credentials,
                    notes, progress);
        }
        Map<String, Series> results = new LinkedHashMap<>(stdio.results());
        results.putAll(http.results());
        Series guarded = results.get("java_guarded");
        Series fixture = results.get("typescript_fixture");
        for (Transport transport : Transport.values()) {
            for (ServerKind sdk : ServerKind.SDKS) {
                Series mine = results.get(figure(sdk, false, transport));
                Series control = results.get(figure(sdk, true, transport));
                progress.printf("bench      guard overhead: %s over %s, guarded p50 %.3f ms, its unguarded control %.3f ms%n",
                        sdk.label(), transport.label(), mine.continuation().p50Ms(), control.continuation().p50Ms());
            }
        }
        progress.printf("bench      guard overhead: %d servers at once per transport, %d interleaved rounds%n", CONTESTANTS.size(),
                ROUNDS);
        Series bridge = rawBridge(plan, work, rss);
        progress.printf("bench      guard overhead: raw bridge p50 %.3f ms%n", bridge.continuation().p50Ms());
        figures.put("timed_calls", perRound * ROUNDS);
        figures.put("rounds", ROUNDS);
        figures.put("warmup_calls", plan.warmupCalls());
        results.forEach((name, series) -> figures.set(name, series.toJson()));
        figures.set("typescript_raw_bridge", bridge.toJson());
        List<Goal> goals = new ArrayList<>();
        for (ServerKind sdk : ServerKind.SDKS) {
            goals.add(overheadGoal(sdk, Transport.STDIO, results, stdio.guardRounds().get(sdk)));
        }
        goals.add(Goal.atMost("typescript_vs_java", "TS fixture continuation p50 <= 1.5x the Java server's",
                "typescript fixture p50", fixture.continuation().p50Ms(), "java guarded p50", guarded.continuation().p50Ms(),
                "ms", 1.5).withRounds(stdio.typescriptRounds()));
        for (ServerKind sdk : ServerKind.SDKS) {
            goals.add(overheadGoal(sdk, Transport.HTTP, results, http.guardRounds().get(sdk)));
        }
        ObjectNode bursts = figures.putObject("http_" + BURST_CLIENTS + "_clients_commits_per_s");
        http.burstRates().forEach((name, rates) -> bursts.put(name, Round.of(Goal.median(rates))));
        for (ServerKind sdk : ServerKind.SDKS) {
            goals.add(throughputGoal(sdk, http));
            progress.printf("bench      guard overhead: %s over http, %d clients: guarded %.0f commits/s, its control %.0f%n",
                    sdk.label(), BURST_CLIENTS, Goal.median(http.burstRates().get(figure(sdk, false, Transport.HTTP))),
                    Goal.median(http.burstRates().get(figure(sdk, true, Transport.HTTP))));
        }
        BenchResult result = new BenchResult("guard_overhead", "Guard overhead over stdio and HTTP", method(plan, perRound), figures, goals,
                notes);
        return new Outcome(result, rss);
    }

    /**
     * A phase, played once more on new servers and new files when a row's rounds spread wider than
     * {@link Goal#UNSTABLE_SPREAD} (rows 1 and 2: an SDK's guarded/unguarded p50; row 3: its burst ratio). The rerun's
     * figures are reported; a row still above the spread is then reported unstable. The quick run only checks the
     * report's shape, so it never reruns.
     */
    private static Phase stablePhase(BenchPlan plan, List<Contestant> contestants, Path work, int perRound, Map<String, Double> rss,
            BearerCredentials credentials, List<String> notes, PrintStream progress) throws Exception {
        Phase first = phase(plan, contestants, work, perRound, rss, credentials);
        Map<String, Double> wide = unstableRows(first);
        String transport = contestants.get(0).transport().label();
        if (wide.isEmpty() || plan.quick()) {
            return first;
        }
        progress.printf("bench      guard overhead: over %s the rounds spread wider than %.0f %% (%s); playing the phase again%n",
                transport, Goal.UNSTABLE_SPREAD * 100, spreads(wide));
        Phase again = phase(plan, contestants, work.resolve("rerun"), perRound, rss, credentials);
        Map<String, Double> stillWide = unstableRows(again);
        notes.add("over " + transport + " the first attempt's rounds spread wider than " + Math.round(Goal.UNSTABLE_SPREAD * 100)
                + " % (" + spreads(wide) + "), so the phase was played again on new servers; the figures are the rerun's"
                + (stillWide.isEmpty() ? "" : ", where " + spreads(stillWide) + " still spread that wide"));
        return again;
    }

    /** Each row of {@code phase} whose rounds spread wider than the bound, with its spread. */
    static Map<String, Double> unstableRows(Phase phase) {
        Map<String, Double> wide = new LinkedHashMap<>();
        phase.guardRounds().forEach((sdk, rounds) -> {
            if (Goal.spreadOf(rounds) > Goal.UNSTABLE_SPREAD) {
                wide.put(sdk.label() + " p50", Goal.spreadOf(rounds));
            }
        });
        phase.burstRatios().forEach((sdk, rounds) -> {
            if (Goal.spreadOf(rounds) > Goal.UNSTABLE_SPREAD) {
                wide.put(sdk.label() + " " + BURST_CLIENTS + " clients", Goal.spreadOf(rounds));
            }
        });
        return wide;
    }

    private static String spreads(Map<String, Double> wide) {
        return String.join(", ", wide.entrySet().stream()
                .map(e -> String.format(java.util.Locale.ROOT, "%s %.0f %%", e.getKey(), e.getValue() * 100)).toList());
    }

    /** {@code tools/call} over stdio or over a kept HTTP connection. */
    private interface ToolCall {
        ObjectNode callTool(String tool, ObjectNode arguments, com.fasterxml.jackson.databind.JsonNode inputResponses, String requestState)
                throws Exception;
    }

    /** One transport's warm servers, timed together: each figure's series, and each round's ratios. */
    record Phase(Map<String, Series> results, Map<ServerKind, List<Double>> guardRounds, List<Double> typescriptRounds,
            Map<String, List<Double>> burstRates, Map<ServerKind, List<Double>> burstRatios) {}

    /**
     * Starts {@code contestants} at once, warms them, times the interleaved rounds, and checks each database's rows;
     * over HTTP each speaks as {@code credentials}' alice on connections it keeps open.
     */
    private static Phase phase(BenchPlan plan, List<Contestant> contestants, Path work, int perRound, Map<String, Double> rss,
            BearerCredentials credentials) throws Exception {
        Map<Contestant, Timed> timed = new LinkedHashMap<>();
        Map<ServerKind, List<Double>> guardRounds = new LinkedHashMap<>();
        List<Double> typescriptRounds = new ArrayList<>();
        Map<String, List<Double>> burstRates = new LinkedHashMap<>();
        Map<ServerKind, List<Double>> burstRatios = new LinkedHashMap<>();
        try {
            // All run at once, so the machine they share is the same for each when its speed drifts. They start
            // four at a time: a start is mostly a runtime loading itself, and one after another left a core idle.
            ExecutorService starting = Executors.newFixedThreadPool(4);
            Map<Contestant, java.util.concurrent.Future<Timed>> started = new LinkedHashMap<>();
            try {
                for (Contestant contestant : contestants) {
                    started.put(contestant, starting.submit(() -> Timed.start(plan, contestant, work, perRound * ROUNDS, credentials)));
                }
                Exception failed = null;
                for (Map.Entry<Contestant, java.util.concurrent.Future<Timed>> entry : started.entrySet()) {
                    try {
                        timed.put(entry.getKey(), entry.getValue().get());
                    } catch (java.util.concurrent.ExecutionException e) {
                        // the others still start; they are closed below with the rest
                        failed = failed == null && e.getCause() instanceof Exception cause ? cause : failed;
                    }
                }
                if (failed != null) {
                    throw failed;
                }
            } finally {
                starting.shutdown();
            }
            for (Timed series : timed.values()) {
                series.calls(plan.warmupCalls(), false);
            }
            timeRounds(timed, perRound, guardRounds, typescriptRounds);
            if (credentials != null) {
                burstRounds(timed, perRound, burstRates, burstRatios);
            }
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
        return new Phase(results, guardRounds, typescriptRounds, burstRates, burstRatios);
    }

    /**
     * Row 3's rounds over HTTP: per SDK a burst of {@value #BURST_CLIENTS} clients on the guarded server and one on its
     * control, the pair's order flipped round by round; each round's guarded/control commits/s ratio per SDK.
     */
    private static void burstRounds(Map<Contestant, Timed> timed, int perRound, Map<String, List<Double>> rates,
            Map<ServerKind, List<Double>> ratios) throws Exception {
        int commits = Math.max(BURST_CLIENTS, perRound);
        ExecutorService clients = Executors.newFixedThreadPool(BURST_CLIENTS);
        try {
            for (Timed series : timed.values()) {
                // One warm-up burst opens each client's connection before anything is timed.
                series.burst(clients, BURST_CLIENTS * 2);
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (ServerKind sdk : ServerKind.SDKS) {
                    Timed guarded = find(timed, sdk, false);
                    Timed control = find(timed, sdk, true);
                    boolean guardedFirst = round % 2 == 0;
                    double first = (guardedFirst ? guarded : control).burst(clients, commits);
                    double second = (guardedFirst ? control : guarded).burst(clients, commits);
                    double guardedRate = guardedFirst ? first : second;
                    double controlRate = guardedFirst ? second : first;
                    rates.computeIfAbsent(guarded.contestant.figure(), k -> new ArrayList<>()).add(guardedRate);
                    rates.computeIfAbsent(control.contestant.figure(), k -> new ArrayList<>()).add(controlRate);
                    ratios.computeIfAbsent(sdk, k -> new ArrayList<>()).add(guardedRate / controlRate);
                }
            }
        } finally {
            clients.shutdownNow();
        }
    }

    private static Timed find(Map<Contestant, Timed> timed, ServerKind sdk, boolean control) {
        return timed.entrySet().stream().filter(e -> e.getKey().sdk() == sdk && e.getKey().control() == control).findFirst()
                .orElseThrow().getValue();
    }

    /** Row 3: {@code sdk}'s guarded commits/s with {@value #BURST_CLIENTS} HTTP clients against its own control's. */
    private static Goal throughputGoal(ServerKind sdk, Phase http) {
        String guarded = figure(sdk, false, Transport.HTTP);
        String control = figure(sdk, true, Transport.HTTP);
        return Goal.atLeast("guard_throughput_http_" + sdk.label(), sdk.sdk().displayName() + " guarded commits/s over HTTP, "
                + BURST_CLIENTS + " clients >= 0.8 of its unguarded control's", sdk.label() + " guarded, " + BURST_CLIENTS + " clients",
                Goal.median(http.burstRates().get(guarded)), sdk.label() + " unguarded, " + BURST_CLIENTS + " clients",
                Goal.median(http.burstRates().get(control)), "commits/s", 0.8).withRounds(http.burstRatios().get(sdk));
    }

    /** {@code sdk}'s guarded continuation p50 against its own control's, over {@code transport}. */
    private static Goal overheadGoal(ServerKind sdk, Transport transport, Map<String, Series> results, List<Double> rounds) {
        String over = transport == Transport.STDIO ? "" : " over " + transport.label().toUpperCase(java.util.Locale.ROOT);
        String id = "guard_overhead_" + (transport == Transport.STDIO ? "" : transport.label() + "_") + sdk.label();
        return Goal.atMost(id, sdk.sdk().displayName() + " guarded/unguarded continuation p50" + over + " <= 1.25",
                sdk.label() + " guarded p50", results.get(figure(sdk, false, transport)).continuation().p50Ms(),
                sdk.label() + " unguarded p50", results.get(figure(sdk, true, transport)).continuation().p50Ms(), "ms", 1.25)
                .withRounds(rounds);
    }

    /** The figure name of {@code sdk}'s guarded server or its control over {@code transport}. */
    private static String figure(ServerKind sdk, boolean control, Transport transport) {
        return CONTESTANTS.stream().filter(c -> c.sdk() == sdk && c.control() == control).findFirst().orElseThrow()
                .over(transport).figure();
    }

    /** The timed rounds; each round's p50 ratios (each SDK's guarded/unguarded, TypeScript/Java) are added to the lists. */
    private static void timeRounds(Map<Contestant, Timed> timed, int perRound, Map<ServerKind, List<Double>> guardRounds,
            List<Double> typescriptRounds) throws Exception {
        List<Contestant> order = new ArrayList<>(timed.keySet());
        Transport transport = order.get(0).transport();
        for (int round = 0; round < ROUNDS; round++) {
            Map<String, Double> p50 = new LinkedHashMap<>();
            for (int k = 0; k < order.size(); k++) {
                // Rotated each round: no series is always first after another's burst of fsyncs.
                Timed series = timed.get(order.get((k + round) % order.size()));
                p50.put(series.contestant.figure(), series.calls(perRound, true));
            }
            for (ServerKind sdk : ServerKind.SDKS) {
                guardRounds.computeIfAbsent(sdk, k -> new ArrayList<>())
                        .add(p50.get(figure(sdk, false, transport)) / p50.get(figure(sdk, true, transport)));
            }
            typescriptRounds.add(p50.get(figure(ServerKind.TYPESCRIPT, false, transport)) / p50.get(figure(ServerKind.JAVA, false, transport)));
        }
    }

    private static String method(BenchPlan plan, int perRound) {
        return "eight warm servers at once (each SDK's guarded server and its unguarded control), over real stdio, then"
                + " eight more over Streamable HTTP (a bearer token, each on a connection kept open), where bursts of "
                + BURST_CLIENTS + " clients on each guarded server and its control follow, the pair's order flipped each round (raw JSON-RPC lines, transcribed), " + ROUNDS + " rounds of " + perRound
                + " calls each, the servers in rotated order within a round, after " + plan.warmupCalls()
                + " warm-up calls each; each call is round one + the continuation that commits with a distinct operation"
                + " id (WAL, synchronous FULL); a goal's ratio is the median of the rounds' p50 ratios; the raw bridge"
                + " gets the fixture's apply line directly";
    }

    /** One server under measurement, kept running across the rounds. */
    private static final class Timed implements AutoCloseable {
        final Contestant contestant;
        private final ToolCall wire;
        private final long pid;
        private final List<AutoCloseable> resources;
        private final Path database;
        private final boolean guarded;
        private final String tool;
        private final long[] roundOne;
        private final long[] continuation;
        private int sent;
        private int timed;
        private long timedWall;

        private Timed(Contestant contestant, ToolCall wire, long pid, List<AutoCloseable> resources, Path database, int timedCalls) {
            this.contestant = contestant;
            this.wire = wire;
            this.pid = pid;
            this.resources = resources;
            this.database = database;
            this.guarded = !contestant.control();
            this.tool = guarded ? ToolClient.CREATE : "create_issue";
            this.roundOne = new long[timedCalls];
            this.continuation = new long[timedCalls];
        }

        static Timed start(BenchPlan plan, Contestant contestant, Path work, int timedCalls, BearerCredentials credentials)
                throws Exception {
            Path folder = Files.createDirectories(work.resolve(contestant.label()));
            Path database = folder.resolve("store.sqlite3");
            Map<String, String> environment = new LinkedHashMap<>(WireSettings.matrix(database, "alice").environment());
            // Warm, long-lived servers as deployed: full tiered compilation (JvmLifetime.LONG), not a case's C1 only.
            // A control reaches the ledger as its SDK's guarded server does (a fixture through the bridge).
            environment.putAll(contestant.sdk().environment(plan.home(), JvmLifetime.LONG));
            if (contestant.transport() == Transport.STDIO) {
                ServerProcess server = ServerProcess.start(contestant.command(plan.home()), environment,
                        folder.resolve("server.transcript.log"), folder.resolve("server.stderr.log"), ServerProcess.READ_TIMEOUT);
                server.request("tools/list", JsonNodeFactory.instance.objectNode());
                return new Timed(contestant, server::callTool, server.pid(), List.of(server), database, timedCalls);
            }
            environment.remove("WIRE_PRINCIPAL");
            environment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice").toString());
            HttpServerProcess server = HttpServerProcess.start(contestant.label(), contestant.command(plan.home()), environment,
                    folder.resolve(Layout.transcript("http")), folder.resolve(Layout.stdout("http")), folder.resolve(Layout.stderr("http")),
                    ServerProcess.READ_TIMEOUT, credentials.token("alice"), credentials.principalsByToken());
            KeptConnections kept = new KeptConnections(server, contestant.label());
            return new Timed(contestant, kept::callTool, server.pid(), List.of(kept, server), database, timedCalls);
        }

        /** {@code n} calls; when timed, their samples are kept and the p50 of their continuations is returned (ms). */
        double calls(int n, boolean keep) throws Exception {
            long[] these = new long[n];
            long wallStart = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long[] took = fullCall(sent++);
                these[i] = took[1];
                if (keep) {
                    roundOne[timed] = took[0];
                    continuation[timed] = took[1];
                    timed++;
                }
            }
            if (keep) {
                timedWall += System.nanoTime() - wallStart;
            }
            return LatencyStats.of(these, 0).p50Ms();
        }

        /** Call number {@code n}: round one, then the continuation that commits; their nanoseconds. */
        private long[] fullCall(int n) throws Exception {
            ObjectNode arguments = guarded
                    ? JsonNodeFactory.instance.objectNode().put("operation_id", "bench-" + contestant.label() + "-" + n)
                            .put("title", "bench").put("mode", "atomic")
                    : JsonNodeFactory.instance.objectNode().put("title", "bench");
            long t0 = System.nanoTime();
            Reply first = new Reply(wire.callTool(tool, arguments, null, null));
            long t1 = System.nanoTime();
            if (!first.inputRequired() || first.requestState() == null) {
                throw new IllegalStateException(contestant.label() + ": round one did not ask for input: " + first.raw());
            }
            Reply committed = new Reply(wire.callTool(tool, arguments, ToolClient.accepted("alpha"), first.requestState()));
            long t2 = System.nanoTime();
            if (committed.refused() || committed.inputRequired()) {
                throw new IllegalStateException(contestant.label() + ": the continuation did not commit: " + committed.raw());
            }
            return new long[] {t1 - t0, t2 - t1};
        }

        /**
         * {@code commits} distinct full calls by {@value #BURST_CLIENTS} clients at once (HTTP only: each client thread
         * on its own kept connection); returns commits per second.
         */
        double burst(ExecutorService clients, int commits) throws Exception {
            int base = sent;
            sent += commits;
            return Bursts.run(clients, BURST_CLIENTS, commits, i -> fullCall(base + i));
        }

        /** Benchmark 6's roles: the Java servers, and each guarded fixture with its bridge (the larger, after a rerun). */
        void sampleRss(Map<String, Double> rss) {
            ServerKind sdk = contestant.sdk();
            if (contestant.transport() != Transport.STDIO) {
                return;
            }
            if (sdk == ServerKind.JAVA) {
                rss.merge((contestant.control() ? ServerKind.UNGUARDED.label() : sdk.label()) + "_server", PeakRss.mib(pid), Math::max);
            } else if (!contestant.control()) {
                // A fixture (node, Python or the Go binary) and its one child, the bridge JVM.
                String role = sdk.label() + (sdk == ServerKind.TYPESCRIPT ? "_fixture_node" : "_fixture");
                rss.merge(role, PeakRss.mib(pid), Math::max);
                ProcessHandle.of(pid).flatMap(p -> p.children().findFirst())
                        .ifPresent(child -> rss.merge(sdk.label() + "_fixture_bridge", PeakRss.mib(child.pid()), Math::max));
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
            for (AutoCloseable resource : resources) {
                resource.close();
            }
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
