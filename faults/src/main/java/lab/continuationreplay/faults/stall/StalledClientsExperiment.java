package lab.continuationreplay.faults.stall;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Stalled clients: connections that send half a request head, or a head and half a body, and then nothing, held
 * open past the server's read timeout while other clients make normal calls (round one, continuation, status).
 * Windows with and without stalled clients alternate, so drift in the machine's load falls on both alike. The p99 of
 * the normal calls with stalled clients must stay within 2x of the p99 without, and the server must close every
 * stalled connection itself.
 */
public final class StalledClientsExperiment implements FaultExperiment {
    public static final String NAME = "stalled-clients";
    static final double MAX_P99_RATIO = 2.0;
    private static final int CALLERS = 3;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "clients stalled mid-head and mid-body past the read timeout: normal calls' p99 within 2x of unloaded, stalled"
                + " connections closed by the server";
    }

    @Override
    public Set<Transport> transports() {
        return Set.of(Transport.HTTP);
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        for (ServerKind sdk : session.sdks()) {
            figures.set(sdk.label(), stall(session, sdk));
        }
        return new ExperimentReport(NAME, title(), true, figures, List.of(), List.of(), Transport.HTTP.label(), 0);
    }

    private ObjectNode stall(FaultSession session, ServerKind sdk) throws Exception {
        Path folder = session.folder(NAME, sdk.label());
        int readTimeoutMs = session.size(2000, 5000);
        int rounds = session.size(2, 5);
        int stalledPerWindow = session.size(8, 16);
        long windowMs = readTimeoutMs + 500L;
        Path database = folder.resolve("store.sqlite3");
        FaultRecorder history = session.history();
        String scope = session.scope(sdk);
        history.ledger(scope, database, "stall-" + sdk.label() + "-");
        Calls calls = new Calls(history, scope, database);
        List<Long> unloaded = Collections.synchronizedList(new ArrayList<>());
        List<Long> loaded = Collections.synchronizedList(new ArrayList<>());
        List<StalledConnection.Ending> endings = new ArrayList<>();
        AtomicInteger failedCalls = new AtomicInteger();
        AtomicInteger operations = new AtomicInteger();
        boolean stillServing;
        HttpServerProcess server = (HttpServerProcess) FaultServers.wire(session, sdk, WireSettings.matrix(database, "alice"), folder,
                "server", Duration.ofSeconds(30), Map.of("WIRE_HTTP_READ_TIMEOUT_MS", Integer.toString(readTimeoutMs)));
        String token = session.credentials().token("alice");
        ExecutorService pool = Executors.newCachedThreadPool();
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("stalls.jsonl"), StandardCharsets.UTF_8)) {
            ToolClient.on(server).open();
            // Warm the server (class loading, the first ledger open) so neither condition pays for it.
            callFor(server, sdk, 1000, new ArrayList<>(), failedCalls, operations, calls);
            failedCalls.set(0);
            Window window = new Window(server, pool, token, sdk, windowMs, 3L * readTimeoutMs + 5000, calls, failedCalls, operations);
            for (int round = 0; round < rounds; round++) {
                // Alternate which condition comes first, so a trend in the machine's load cancels out.
                boolean loadedFirst = round % 2 == 1;
                endings.addAll(window.play(loadedFirst ? stalledPerWindow : 0, loadedFirst ? loaded : unloaded, log, round));
                endings.addAll(window.play(loadedFirst ? 0 : stalledPerWindow, loadedFirst ? unloaded : loaded, log, round));
            }
            stillServing = stillServing(server);
        } finally {
            pool.shutdownNow();
            server.close();
        }

        long leftOpen = endings.stream().filter(e -> !e.closedByServer()).count();
        history.expect(scope, "stalled connections still open " + (3L * readTimeoutMs + 5000) + " ms after their last byte", 0, leftOpen);
        history.expect(scope, "normal calls that failed while clients stalled", 0, failedCalls.get());
        history.expect(scope, "a normal call at the end", "served", stillServing ? "served" : "not served");
        ObjectNode figures = latencies(history, scope, unloaded, loaded);
        figures.put("read_timeout_ms", readTimeoutMs).put("rounds", rounds).put("stalled_connections", endings.size())
                .put("closed_by_server", endings.size() - leftOpen)
                .put("calls_unloaded", unloaded.size()).put("calls_loaded", loaded.size()).put("failed_calls", failedCalls.get())
                .put("still_serving", stillServing);
        figures.set("closing", closing(endings));
        return figures;
    }

    /** The normal calls' p50 and p99 without and with stalled clients; their p99 ratio is held to its bound in the history. */
    private static ObjectNode latencies(FaultRecorder history, String scope, List<Long> unloaded, List<Long> loaded) {
        long p50Unloaded = Percentiles.of(unloaded, 50);
        long p50Loaded = Percentiles.of(loaded, 50);
        long p99Unloaded = Percentiles.of(unloaded, 99);
        long p99Loaded = Percentiles.of(loaded, 99);
        double ratio = p99Unloaded == 0 ? Double.POSITIVE_INFINITY : (double) p99Loaded / p99Unloaded;
        String within = "at most " + MAX_P99_RATIO + "x";
        history.expect(scope, "p99 of normal calls with stalled clients (" + ms(p99Loaded) + " ms) / without (" + ms(p99Unloaded) + " ms)",
                within, ratio <= MAX_P99_RATIO ? within : round2(ratio) + "x");
        return JsonNodeFactory.instance.objectNode().put("p50_unloaded_ms", ms(p50Unloaded)).put("p50_loaded_ms", ms(p50Loaded))
                .put("p99_unloaded_ms", ms(p99Unloaded)).put("p99_loaded_ms", ms(p99Loaded)).put("p99_ratio", round2(ratio));
    }

    /** How the server ended each kind of stalled connection: its answers, and how long after the last byte. */
    private static ObjectNode closing(List<StalledConnection.Ending> endings) {
        ObjectNode closing = JsonNodeFactory.instance.objectNode();
        for (StallKind kind : StallKind.values()) {
            List<StalledConnection.Ending> ofKind = endings.stream().filter(e -> e.kind() == kind).toList();
            Map<String, Integer> answers = new TreeMap<>();
            ofKind.forEach(e -> answers.merge(e.firstLine().isEmpty() ? "closed without a response" : e.firstLine(), 1, Integer::sum));
            long slowest = ofKind.stream().mapToLong(StalledConnection.Ending::millisAfterLastByte).max().orElse(0);
            long fastest = ofKind.stream().mapToLong(StalledConnection.Ending::millisAfterLastByte).min().orElse(0);
            closing.put(kind.label(), answers + ", closed " + fastest + "–" + slowest + " ms after the last byte");
        }
        return closing;
    }

    /** One window of normal calls from a few callers, with {@code stalls} stalled connections open beside them or none. */
    private record Window(HttpServerProcess server, ExecutorService pool, String token, ServerKind sdk, long windowMs, long awaitMs,
            Calls calls, AtomicInteger failedCalls, AtomicInteger operations) {
        List<StalledConnection.Ending> play(int stalls, List<Long> latencies, BufferedWriter log, int round) throws Exception {
            List<StalledConnection> stalled = new ArrayList<>();
            for (int i = 0; i < stalls; i++) {
                stalled.add(StalledConnection.open(i % 2 == 0 ? StallKind.HALF_HEAD : StallKind.STALLED_BODY, server.exchanges().endpoint(),
                        token));
            }
            List<Future<?>> callers = new ArrayList<>();
            for (int c = 0; c < CALLERS; c++) {
                callers.add(pool.submit(() -> {
                    callFor(server, sdk, windowMs, latencies, failedCalls, operations, calls);
                    return null;
                }));
            }
            List<Future<StalledConnection.Ending>> waits = new ArrayList<>();
            for (StalledConnection connection : stalled) {
                waits.add(pool.submit(() -> connection.await(awaitMs)));
            }
            for (Future<?> caller : callers) {
                caller.get();
            }
            List<StalledConnection.Ending> endings = new ArrayList<>();
            for (int i = 0; i < stalled.size(); i++) {
                StalledConnection.Ending ending = waits.get(i).get();
                stalled.get(i).close();
                endings.add(ending);
                ObjectNode line = JsonNodeFactory.instance.objectNode().put("round", round).put("kind", ending.kind().label())
                        .put("sent", stalled.get(i).sent()).put("closed_by_server", ending.closedByServer())
                        .put("ms_after_last_byte", ending.millisAfterLastByte()).put("first_line", ending.firstLine());
                log.write(line.toString());
                log.write('\n');
            }
            return endings;
        }
    }

    /** Where the normal calls are written down: the history is shared by the caller threads. */
    private record Calls(FaultRecorder history, String scope, Path database) {}

    /** Normal operations for {@code millis}: round one, continuation, status, each call's latency recorded. */
    private static void callFor(HttpServerProcess server, ServerKind sdk, long millis, List<Long> latencies, AtomicInteger failed,
            AtomicInteger operations, Calls calls) {
        ToolClient client = ToolClient.on(server);
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            String operationId = "stall-" + sdk.label() + "-" + operations.incrementAndGet();
            ObjectNode arguments = ToolClient.arguments(operationId, "stalled clients " + operationId, "atomic");
            try {
                long t0 = System.nanoTime();
                String state = client.roundOne(arguments);
                long t1 = System.nanoTime();
                calls.history().sent(calls.scope(), calls.database(), operationId);
                Reply reply;
                try {
                    reply = client.commit(arguments, state, "answer");
                } catch (Exception lost) {
                    calls.history().lost(calls.scope(), calls.database(), operationId, lost.getMessage());
                    throw lost;
                }
                calls.history().answer(calls.scope(), calls.database(), operationId, reply);
                long t2 = System.nanoTime();
                Reply status = client.status(operationId);
                long t3 = System.nanoTime();
                if (!reply.isSuccess() || !status.isSuccess()) {
                    failed.incrementAndGet();
                }
                latencies.add(t1 - t0);
                latencies.add(t2 - t1);
                latencies.add(t3 - t2);
            } catch (Exception e) {
                failed.incrementAndGet();
            }
        }
    }

    private static boolean stillServing(HttpServerProcess server) {
        try {
            return ToolClient.on(server).status("stall-final").isSuccess();
        } catch (Exception e) {
            return false;
        }
    }

    private static double ms(long nanos) {
        return Math.round(nanos / 10_000.0) / 100.0;
    }

    private static double round2(double value) {
        return Math.round(value * 100.0) / 100.0;
    }
}
