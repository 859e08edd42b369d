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
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.ServerWire;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.history.StoreRows;

/**
 * Benchmark 7 (first part): the guarded continuation over Streamable HTTP against the same over stdio, per SDK. Both
 * servers of an SDK run at once, each on its own SQLite file, and the calls alternate between them (stdio, HTTP,
 * stdio, ...), so a drift of the machine's fsync speed falls on both series alike. Over HTTP each exchange is a plain
 * POST on a new loopback connection with a bearer token, as the matrix sends it; transcribed like the stdio lines.
 */
final class HttpVsStdioBench {
    private HttpVsStdioBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path work = Files.createDirectories(plan.work().resolve("http-vs-stdio"));
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        List<Goal> goals = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        figures.put("timed_calls", plan.timedCalls());
        figures.put("warmup_calls", plan.warmupCalls());
        for (ServerKind sdk : List.of(ServerKind.JAVA, ServerKind.TYPESCRIPT)) {
            Map<String, LatencyStats> series = interleaved(plan, sdk, work.resolve(sdk.label()));
            LatencyStats stdio = series.get("stdio");
            LatencyStats http = series.get("http");
            progress.printf("bench      http vs stdio: %s continuation p50 stdio %.3f ms, http %.3f ms%n", sdk.label(), stdio.p50Ms(),
                    http.p50Ms());
            ObjectNode side = figures.putObject(sdk.label());
            side.set("stdio_continuation", stdio.toJson());
            side.set("http_continuation", http.toJson());
            goals.add(Goal.atMost("http_vs_stdio_" + sdk.label(), sdk.label() + " guarded continuation p50 over HTTP / over stdio <= 1.25",
                    sdk.label() + " http p50", http.p50Ms(), sdk.label() + " stdio p50", stdio.p50Ms(), "ms", 1.25));
        }
        notes.add("a new TCP connection per HTTP exchange (Connection: close), as the matrix's HTTP driver sends them");
        return new BenchResult("http_vs_stdio", "Guarded continuation over HTTP vs stdio",
                "for each SDK a stdio server and an HTTP server (--http 0, bearer token) run at once on separate SQLite files;"
                        + " " + plan.timedCalls() + " timed calls alternate between them after " + plan.warmupCalls()
                        + " warm-up calls each; a call is round one + the continuation that commits (WAL, synchronous FULL)",
                figures, goals, notes);
    }

    /** The continuation latencies of {@code sdk} over stdio and over HTTP, calls alternating between the two servers. */
    private static Map<String, LatencyStats> interleaved(BenchPlan plan, ServerKind sdk, Path folder) throws Exception {
        Files.createDirectories(folder);
        int total = plan.warmupCalls() + plan.timedCalls();
        Map<String, long[]> nanos = new LinkedHashMap<>();
        nanos.put("stdio", new long[plan.timedCalls()]);
        nanos.put("http", new long[plan.timedCalls()]);
        WireSettings stdioSettings = WireSettings.matrix(folder.resolve("stdio.sqlite3"), "alice");
        WireSettings httpSettings = WireSettings.matrix(folder.resolve("http.sqlite3"), "alice");
        Map<String, String> stdioEnvironment = new LinkedHashMap<>(stdioSettings.environment());
        stdioEnvironment.putAll(sdk.environment(plan.home()));
        try (BearerCredentials credentials = new BearerCredentials()) {
            Map<String, String> httpEnvironment = new LinkedHashMap<>(httpSettings.environment());
            httpEnvironment.remove("WIRE_PRINCIPAL");
            httpEnvironment.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice").toString());
            httpEnvironment.putAll(sdk.environment(plan.home()));
            try (ServerProcess stdio = ServerProcess.start(sdk.command(plan.home()), stdioEnvironment,
                    folder.resolve(Layout.transcript("stdio")), folder.resolve(Layout.stderr("stdio")), ServerProcess.READ_TIMEOUT);
                    HttpServerProcess http = HttpServerProcess.start(sdk.label() + " http", sdk.command(plan.home()), httpEnvironment,
                            folder.resolve(Layout.transcript("http")), folder.resolve(Layout.stdout("http")),
                            folder.resolve(Layout.stderr("http")), ServerProcess.READ_TIMEOUT, credentials.token("alice"),
                            credentials.principalsByToken())) {
                Map<String, ServerWire> servers = Map.of("stdio", stdio, "http", http);
                for (ServerWire server : servers.values()) {
                    server.request("tools/list", JsonNodeFactory.instance.objectNode());
                }
                for (int i = 0; i < total; i++) {
                    for (String transport : List.of("stdio", "http")) {
                        long took = continuation(servers.get(transport), sdk.label() + "-" + transport + "-" + i);
                        if (i >= plan.warmupCalls()) {
                            nanos.get(transport)[i - plan.warmupCalls()] = took;
                        }
                    }
                }
            }
        }
        for (String transport : List.of("stdio", "http")) {
            long issues = StoreRows.count(folder.resolve(transport + ".sqlite3"), "issues");
            if (issues != total) {
                throw new IllegalStateException(sdk.label() + " over " + transport + ": " + issues + " issue rows after " + total
                        + " committed calls");
            }
        }
        Map<String, LatencyStats> stats = new LinkedHashMap<>();
        nanos.forEach((transport, values) -> stats.put(transport, LatencyStats.of(values, 0)));
        return stats;
    }

    /** Round one, then the timed continuation that commits; returns the continuation's nanoseconds. */
    private static long continuation(ServerWire server, String operationId) throws Exception {
        ObjectNode arguments = ToolClient.arguments(operationId, "bench", "atomic");
        Reply first = new Reply(server.callTool(ToolClient.CREATE, arguments, null, null));
        if (!first.inputRequired() || first.requestState() == null) {
            throw new IllegalStateException(server.name() + ": round one did not ask for input: " + first.raw());
        }
        long started = System.nanoTime();
        Reply committed = new Reply(server.callTool(ToolClient.CREATE, arguments, ToolClient.accepted("alpha"), first.requestState()));
        long took = System.nanoTime() - started;
        if (committed.refused() || committed.inputRequired()) {
            throw new IllegalStateException(server.name() + ": the continuation did not commit: " + committed.raw());
        }
        return took;
    }
}
