package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.net.URI;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import java.util.concurrent.atomic.AtomicInteger;

import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.JvmLifetime;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpMessages;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.EventStream;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Benchmark 7: the guarded continuation over Streamable HTTP against the same over stdio, per SDK, and the guarded
 * commits per second that {@value #CLIENTS} concurrent HTTP clients get against the bare commit loop. Both servers of
 * an SDK run at once, warm and long-lived, each on its own SQLite file; the series are timed in interleaved rounds
 * whose order alternates, so a drift of the machine's fsync speed falls on both sides of each ratio. Each HTTP client
 * thread keeps its connection open, as an SDK client does (the matrix's driver opens one per exchange to transcribe
 * it whole, a cost no deployment pays per call); the JDK's own HttpClient was slower than the server it measured.
 */
final class HttpVsStdioBench {
    static final int ROUNDS = 5;
    static final int CLIENTS = 16;

    private HttpVsStdioBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("http-vs-stdio"));
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        List<Goal> goals = new ArrayList<>();
        int perRound = Math.max(1, plan.timedCalls() / ROUNDS);
        int concurrentPerRound = Math.max(CLIENTS, plan.timedCalls() / ROUNDS * 2);
        figures.put("timed_calls", perRound * ROUNDS);
        figures.put("rounds", ROUNDS);
        figures.put("warmup_calls", plan.warmupCalls());
        figures.put("concurrent_clients", CLIENTS);
        figures.put("concurrent_commits", concurrentPerRound * ROUNDS);
        for (ServerKind sdk : List.of(ServerKind.JAVA, ServerKind.TYPESCRIPT)) {
            Side side = measure(plan, sdk, work.resolve(sdk.label()), perRound, concurrentPerRound);
            progress.printf("bench      http vs stdio: %s continuation p50 stdio %.3f ms, http %.3f ms; %d clients %.0f commits/s,"
                    + " bare loop %.0f commits/s%s%n", sdk.label(), side.stdio.p50Ms(), side.http.p50Ms(), CLIENTS,
                    Goal.median(side.concurrentRates), Goal.median(side.bareRates), String.format(java.util.Locale.ROOT, ", %s %.0f commits/s", side.control.what, Goal.median(side.control.rates)));
            int cores = Runtime.getRuntime().availableProcessors();
            putFigures(figures.putObject(sdk.label()), sdk, side, cores);
            goals.add(Goal.atMost("http_vs_stdio_" + sdk.label(), sdk.label() + " guarded continuation p50 over HTTP / over stdio <= 1.25",
                    sdk.label() + " http p50", side.http.p50Ms(), sdk.label() + " stdio p50", side.stdio.p50Ms(), "ms", 1.25)
                    .withRounds(side.latencyRatios));
            goals.add(concurrentGoal(sdk, side, cores));
        }
        return new BenchResult("http_vs_stdio", "Guarded continuation over HTTP vs stdio", method(plan, perRound, concurrentPerRound),
                figures, goals, List.of());
    }

    /** One SDK's figures: both latencies, the burst rates, and (where the CPU can be read) each side's CPU per commit. */
    private static void putFigures(ObjectNode json, ServerKind sdk, Side side, int cores) {
        json.set("stdio_continuation", side.stdio.toJson());
        json.set("http_continuation", side.http.toJson());
        json.put("http_concurrent_commits_per_s", Round.of(Goal.median(side.concurrentRates)));
        json.put("bare_commits_per_s", Round.of(Goal.median(side.bareRates)));
        if (ProcessCpu.available()) {
            // What the 16-client goal asks of the CPU: the server's CPU per commit bounds its commits/s on this
            // machine's cores even with a free client, whatever the ledger does.
            double serverMs = side.serverCpuNanos / 1e6 / side.burstCommits;
            double clientMs = side.clientCpuNanos / 1e6 / side.burstCommits;
            json.put("http_burst_server_cpu_ms_per_commit", Round.of(serverMs));
            json.put("http_burst_client_cpu_ms_per_commit", Round.of(clientMs));
            json.put("http_burst_ceiling_commits_per_s_server_cpu_only", Round.of(cores * 1000 / serverMs));
            json.put("http_burst_ceiling_commits_per_s_server_and_client_cpu", Round.of(cores * 1000 / (serverMs + clientMs)));
        }
        double controlMs = side.control.serverCpuNanos / 1e6 / side.burstCommits;
        double controlMainMs = side.control.mainThreadCpuNanos / 1e6 / side.burstCommits;
        if (sdk == ServerKind.JAVA) {
            json.put("unguarded_http_concurrent_commits_per_s", Round.of(Goal.median(side.control.rates)));
            if (ProcessCpu.available()) {
                json.put("unguarded_http_burst_server_cpu_ms_per_commit", Round.of(controlMs));
                json.put("unguarded_http_burst_ceiling_commits_per_s_server_cpu_only", Round.of(HttpCeilings.ceiling(cores, controlMs)));
            }
        } else {
            json.put("sdk_floor_http_calls_per_s", Round.of(Goal.median(side.control.rates)));
            if (ProcessCpu.available()) {
                json.put("sdk_floor_http_burst_cpu_ms_per_call", Round.of(controlMs));
                json.put("sdk_floor_http_burst_main_thread_cpu_ms_per_call", Round.of(controlMainMs));
                json.put("sdk_floor_http_burst_ceiling_calls_per_s", Round.of(HttpCeilings.nodeCeiling(cores, controlMs, controlMainMs)));
            }
        }
    }

    /** The 16-client goal against the bare loop, with its floor from the control's CPU where the CPU can be read. */
    private static Goal concurrentGoal(ServerKind sdk, Side side, int cores) {
        double controlMs = side.control.serverCpuNanos / 1e6 / side.burstCommits;
        double controlMainMs = side.control.mainThreadCpuNanos / 1e6 / side.burstCommits;
        Goal concurrent = Goal.atLeast("http_concurrent_" + sdk.label(), sdk.label() + " guarded commits/s over HTTP, " + CLIENTS
                + " clients >= 0.7 of the bare loop", sdk.label() + " http, " + CLIENTS + " clients", Goal.median(side.concurrentRates),
                "bare commit loop", Goal.median(side.bareRates), "commits/s", 0.7).withRounds(side.throughputRatios);
        if (ProcessCpu.available()) {
            concurrent = sdk == ServerKind.JAVA ? HttpCeilings.withControlCeiling(concurrent, cores, controlMs)
                    : concurrent.withFloor(HttpCeilings.SDK_FLOOR, HttpCeilings.nodeCeiling(cores, controlMs, controlMainMs) / concurrent.baseline());
        }
        return concurrent;
    }

    private static String method(BenchPlan plan, int perRound, int concurrentPerRound) {
        return "for each SDK a stdio server and an HTTP server (--http 0, bearer token), warm and long-lived, run at once on"
                + " separate SQLite files; after " + plan.warmupCalls() + " warm-up calls each, " + ROUNDS + " rounds of "
                + perRound + " calls per server in alternating order (a call: round one, then the timed continuation that"
                + " commits; WAL, synchronous FULL); then " + ROUNDS + " rounds of the bare commit loop and " + CLIENTS
                + " concurrent HTTP clients committing " + concurrentPerRound + " distinct operations, in alternating"
                + " order; for Java, the unguarded control over HTTP (create_issue: the same two rounds, sealed state, SDK and"
                + " Tomcat, one durable INSERT+COMMIT, no ledger) takes the same bursts, interleaved with the guarded ones, and"
                + " its server CPU per commit gives the goal's floor; for TypeScript the SDK floor server"
                + " (ts-fixture/dist/bench/sdk-floor-server.js: the SDK's handler, a server per request, the same tool and"
                + " schema, the SDK's state codec, no guard, no bridge, no commit) does, and node's one JavaScript thread"
                + " bounds it; each HTTP client keeps its connection open (HTTP/1.1"
                + " keep-alive, raw bytes); a goal's ratio is its median round";
    }

    /** {@code serverCpuNanos} and {@code clientCpuNanos}: CPU used during the timed bursts only. */
    private record Side(LatencyStats stdio, LatencyStats http, List<Double> latencyRatios, List<Double> concurrentRates,
            List<Double> bareRates, List<Double> throughputRatios, long serverCpuNanos, long clientCpuNanos, int burstCommits,
            Control control) {}

    /**
     * The control's bursts (Java: the unguarded control; TypeScript: the SDK floor server): calls/s per round, its
     * process's CPU during them and the part of it on the process's main thread.
     */
    private record Control(String what, List<Double> rates, long serverCpuNanos, long mainThreadCpuNanos) {}

    private static Side measure(BenchPlan plan, ServerKind sdk, Path folder, int perRound, int concurrentPerRound) throws Exception {
        Files.createDirectories(folder);
        WireSettings stdioSettings = WireSettings.matrix(folder.resolve("stdio.sqlite3"), "alice");
        WireSettings httpSettings = WireSettings.matrix(folder.resolve("http.sqlite3"), "alice");
        Map<String, String> stdioEnvironment = new LinkedHashMap<>(stdioSettings.environment());
        stdioEnvironment.putAll(sdk.environment(plan.home(), JvmLifetime.LONG));
        Tally tally = new Tally(perRound * ROUNDS);
        boolean javaControl = sdk == ServerKind.JAVA;
        String controlName = javaControl ? "unguarded http" : "sdk floor http";
        String controlFiles = controlName.replace(' ', '-');
        int httpCommits;
        int stdioCommits;
        try (BearerCredentials credentials = new BearerCredentials()) {
            Map<String, String> httpEnvironment = new LinkedHashMap<>(httpSettings.environment());
            httpEnvironment.remove("WIRE_PRINCIPAL");
            httpEnvironment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice").toString());
            httpEnvironment.putAll(sdk.environment(plan.home(), JvmLifetime.LONG));
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try (ServerProcess stdio = ServerProcess.start(sdk.command(plan.home(), JvmLifetime.LONG), stdioEnvironment,
                    folder.resolve(Layout.transcript("stdio")), folder.resolve(Layout.stderr("stdio")), ServerProcess.READ_TIMEOUT);
                    HttpServerProcess http = HttpServerProcess.start(sdk.label() + " http", sdk.command(plan.home(), JvmLifetime.LONG),
                            httpEnvironment, folder.resolve(Layout.transcript("http")), folder.resolve(Layout.stdout("http")),
                            folder.resolve(Layout.stderr("http")), ServerProcess.READ_TIMEOUT, credentials.token("alice"),
                            credentials.principalsByToken());
                    BareCommits bare = new BareCommits(folder.resolve("bare.sqlite3"), "bare");
                    KeptConnections pooled = new KeptConnections(http, sdk.label() + " http");
                    HttpServerProcess control = HttpServerProcess.start(controlName,
                            javaControl ? ServerKind.UNGUARDED.command(plan.home(), JvmLifetime.LONG) : sdkFloorCommand(plan),
                            controlEnvironment(plan, folder, credentials), folder.resolve(Layout.transcript(controlFiles)),
                            folder.resolve(Layout.stdout(controlFiles)), folder.resolve(Layout.stderr(controlFiles)),
                            ServerProcess.READ_TIMEOUT, credentials.token("alice"), credentials.principalsByToken());
                    KeptConnections controlPooled = new KeptConnections(control, controlName)) {
                Wires wires = new Wires(sdk, clients,
                        (id) -> continuation(stdio::callTool, sdk.label() + " stdio", ToolClient.CREATE,
                                ToolClient.arguments(id, "bench", "atomic")),
                        (id) -> continuation(pooled::callTool, sdk.label() + " http", ToolClient.CREATE,
                                ToolClient.arguments(id, "bench", "atomic")),
                        overControl(javaControl, controlPooled, controlName), http, control, bare);
                int timed = timeLatencies(plan, wires, perRound, tally);
                stdioCommits = plan.warmupCalls() + timed;
                int concurrent = timeBursts(plan.warmupCalls() + timed, wires, concurrentPerRound, tally);
                httpCommits = plan.warmupCalls() + timed + concurrent;
            } finally {
                clients.shutdownNow();
            }
        }
        check(folder.resolve("stdio.sqlite3"), stdioCommits, sdk.label() + " over stdio");
        check(folder.resolve("http.sqlite3"), httpCommits, sdk.label() + " over http");
        if (javaControl) {
            check(folder.resolve(CONTROL_DATABASE), tally.controlCommits, "the unguarded control over http");
        }
        return new Side(LatencyStats.of(tally.stdioNanos, 0), LatencyStats.of(tally.httpNanos, 0), tally.latencyRatios,
                tally.concurrentRates, tally.bareRates, tally.throughputRatios, tally.serverCpuNanos, tally.clientCpuNanos,
                concurrentPerRound * ROUNDS, new Control(javaControl ? "unguarded control" : "SDK floor server", tally.controlRates,
                        tally.controlCpu[0], tally.controlCpu[1]));
    }

    /** One SDK's running servers and bare loop, and the callers the timed phases use on them. */
    private record Wires(ServerKind sdk, ExecutorService clients, Caller overStdio, Caller overHttp, Caller overControl,
            HttpServerProcess http, HttpServerProcess control, BareCommits bare) {}

    /** What the timed phases of one SDK add up, for its {@link Side}. */
    private static final class Tally {
        final long[] stdioNanos;
        final long[] httpNanos;
        final List<Double> latencyRatios = new ArrayList<>();
        final List<Double> concurrentRates = new ArrayList<>();
        final List<Double> bareRates = new ArrayList<>();
        final List<Double> throughputRatios = new ArrayList<>();
        final List<Double> controlRates = new ArrayList<>();
        final long[] controlCpu = new long[2];
        long serverCpuNanos;
        long clientCpuNanos;
        int controlCommits;

        Tally(int timedCalls) {
            stdioNanos = new long[timedCalls];
            httpNanos = new long[timedCalls];
        }
    }

    /** The control's call: Java's unguarded tool with a title only, or the SDK floor server's guarded tool. */
    private static Caller overControl(boolean javaControl, KeptConnections controlPooled, String controlName) {
        return javaControl
                ? (id) -> continuation(controlPooled::callTool, controlName, CONTROL_TOOL,
                        JsonNodeFactory.instance.objectNode().put("title", "bench " + id))
                : (id) -> continuation(controlPooled::callTool, controlName, ToolClient.CREATE,
                        ToolClient.arguments(id, "bench", "atomic"));
    }

    /** The warm-up calls and the bare loop's, then the rounds of single calls over stdio and HTTP; the calls timed. */
    private static int timeLatencies(BenchPlan plan, Wires wires, int perRound, Tally tally) throws Exception {
        String sdk = wires.sdk().label();
        AtomicInteger ids = new AtomicInteger();
        for (int i = 0; i < plan.warmupCalls(); i++) {
            wires.overStdio().call(sdk + "-stdio-" + ids.get());
            wires.overHttp().call(sdk + "-http-" + ids.getAndIncrement());
        }
        wires.bare().run(plan.warmupCalls());
        int timed = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long[] s = new long[perRound];
            long[] h = new long[perRound];
            for (int i = 0; i < perRound; i++) {
                // Alternating which goes first, round by round and call by call.
                boolean stdioFirst = (round + i) % 2 == 0;
                String id = Integer.toString(ids.getAndIncrement());
                if (stdioFirst) {
                    s[i] = wires.overStdio().call(sdk + "-stdio-" + id);
                    h[i] = wires.overHttp().call(sdk + "-http-" + id);
                } else {
                    h[i] = wires.overHttp().call(sdk + "-http-" + id);
                    s[i] = wires.overStdio().call(sdk + "-stdio-" + id);
                }
                tally.stdioNanos[timed] = s[i];
                tally.httpNanos[timed] = h[i];
                timed++;
            }
            tally.latencyRatios.add(LatencyStats.of(h, 0).p50Ms() / LatencyStats.of(s, 0).p50Ms());
        }
        return timed;
    }

    /**
     * The control's warm-up and the warm-up bursts, then the rounds of bursts on the guarded server, the control and
     * the bare loop; {@code callsSoFar} are the guarded HTTP server's calls before. Returns the guarded bursts' commits.
     */
    private static int timeBursts(int callsSoFar, Wires wires, int concurrentPerRound, Tally tally) throws Exception {
        ExecutorService clients = wires.clients();
        String sdk = wires.sdk().label();
        int concurrent = 0;
        // CONTROL_WARMUP times the calls the guarded HTTP server has had by now, at 16 clients: a control
        // still compiling would spend the JIT's CPU in its bursts, lower the HttpCeilings.ceiling and claim "out of
        // reach" too readily; a warmer control errs the other way, as a floor should.
        int warm = CONTROL_WARMUP * callsSoFar;
        tally.controlCommits += warm;
        burst(clients, wires.overControl(), "control-warm-", warm);
        // One warm-up burst opens the client's connections before anything is timed.
        burst(clients, wires.overHttp(), sdk + "-burst-warm-", CLIENTS * 2);
        concurrent += CLIENTS * 2;
        burst(clients, wires.overControl(), "control-burst-warm-", CLIENTS * 2);
        tally.controlCommits += CLIENTS * 2;
        ProcessHandle server = wires.http().handle();
        ProcessHandle self = ProcessHandle.current();
        for (int round = 0; round < ROUNDS; round++) {
            // The bare loop runs before the bursts in even rounds and after them in odd ones; the control's
            // burst after the guarded one in even rounds and before it in odd ones.
            double bareRate = round % 2 == 0 ? wires.bare().run(concurrentPerRound) : Double.NaN;
            if (round % 2 != 0) {
                tally.controlRates.add(controlBurst(clients, wires.control(), wires.overControl(), round, concurrentPerRound,
                        tally.controlCpu));
                tally.controlCommits += concurrentPerRound;
            }
            long serverBefore = ProcessCpu.nanos(server);
            long clientBefore = ProcessCpu.ticks(self.pid());
            double httpRate = burst(clients, wires.overHttp(), sdk + "-burst-" + round + "-", concurrentPerRound);
            tally.serverCpuNanos += ProcessCpu.nanos(server) - serverBefore;
            tally.clientCpuNanos += (ProcessCpu.ticks(self.pid()) - clientBefore) * 10_000_000L;
            if (round % 2 == 0) {
                tally.controlRates.add(controlBurst(clients, wires.control(), wires.overControl(), round, concurrentPerRound,
                        tally.controlCpu));
                tally.controlCommits += concurrentPerRound;
            }
            if (round % 2 != 0) {
                bareRate = wires.bare().run(concurrentPerRound);
            }
            concurrent += concurrentPerRound;
            tally.bareRates.add(bareRate);
            tally.concurrentRates.add(httpRate);
            tally.throughputRatios.add(httpRate / bareRate);
        }
        return concurrent;
    }

    private static final String CONTROL_TOOL = "create_issue";
    /** How many times the guarded HTTP server's calls before the bursts the control gets as its warm-up. */
    static final int CONTROL_WARMUP = 4;
    private static final String CONTROL_DATABASE = "unguarded-http.sqlite3";

    /** The unguarded control's environment: its own SQLite file, the same bearer token file. */
    private static Map<String, String> controlEnvironment(BenchPlan plan, Path folder, BearerCredentials credentials) {
        Map<String, String> environment = new LinkedHashMap<>(WireSettings.matrix(folder.resolve(CONTROL_DATABASE), "alice").environment());
        environment.remove("WIRE_PRINCIPAL");
        environment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice").toString());
        environment.putAll(ServerKind.UNGUARDED.environment(plan.home(), JvmLifetime.LONG));
        return environment;
    }

    /**
     * One timed burst on the control; its process tree's CPU during the burst is added to {@code cpuNanos[0]}, its
     * main thread's to {@code cpuNanos[1]}.
     */
    private static double controlBurst(ExecutorService clients, HttpServerProcess control, Caller overControl, int round,
            int commits, long[] cpuNanos) throws Exception {
        long before = ProcessCpu.nanos(control.handle());
        long mainBefore = ProcessCpu.mainThreadNanos(control.handle());
        double rate = burst(clients, overControl, "control-burst-" + round + "-", commits);
        cpuNanos[0] += ProcessCpu.nanos(control.handle()) - before;
        cpuNanos[1] += ProcessCpu.mainThreadNanos(control.handle()) - mainBefore;
        return rate;
    }

    /** The TypeScript SDK floor server: node on the fixture's compiled bench script. */
    private static List<String> sdkFloorCommand(BenchPlan plan) {
        return List.of(lab.continuationreplay.core.LabHome.node(), lab.continuationreplay.core.LabHome.requireFile(
                plan.home().resolve("ts-fixture/dist/bench/sdk-floor-server.js"), "build the lab first (the ts-fixture module)").toString());
    }

    private static void check(Path database, long expected, String what) throws Exception {
        long issues = StoreRows.count(database, "issues");
        if (issues != expected) {
            throw new IllegalStateException(what + ": " + issues + " issue rows after " + expected + " committed calls");
        }
    }

    /** {@code commits} distinct operations by {@value #CLIENTS} clients at once; returns commits per second. */
    private static double burst(ExecutorService clients, Caller caller, String prefix, int commits) throws Exception {
        return Bursts.run(clients, CLIENTS, commits, i -> caller.call(prefix + i));
    }

    /** One guarded call, round one then the continuation; returns the continuation's nanoseconds. */
    private interface Caller {
        long call(String operationId) throws Exception;
    }

    /** {@code tools/call} over some wire. */
    private interface ToolCall {
        ObjectNode call(String name, ObjectNode arguments, JsonNode inputResponses, String requestState) throws Exception;
    }

    private static long continuation(ToolCall wire, String name, String tool, ObjectNode arguments) throws Exception {
        Reply first = new Reply(wire.call(tool, arguments, null, null));
        if (!first.inputRequired() || first.requestState() == null) {
            throw new IllegalStateException(name + ": round one did not ask for input: " + first.raw());
        }
        long started = System.nanoTime();
        Reply committed = new Reply(wire.call(tool, arguments, ToolClient.accepted("alpha"), first.requestState()));
        long took = System.nanoTime() - started;
        if (committed.refused() || committed.inputRequired()) {
            throw new IllegalStateException(name + ": the continuation did not commit: " + committed.raw());
        }
        return took;
    }
}
