package lab.continuationreplay.bench;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.matrix.clients.ClientsRunner;

/**
 * The samples of benchmark 6 for the official SDK clients: each client's driver plays the first client case against
 * the Java server, as {@code lab clients} runs it, while every process below this JVM is sampled every 10 ms. A
 * driver's {@code VmHWM} only grows, so its last sample before it exits is its peak, give or take the last 10 ms.
 */
final class ClientRss {
    /** Every official SDK client's driver: benchmark 6 has a goal for each (row 9 of the goal table, per SDK). */
    private static final List<ClientKind> MEASURED = List.of(ClientKind.values());

    private ClientRss() {}

    static Map<String, Double> sample(BenchPlan plan) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("client-rss"));
        Map<Long, Long> peakKib = new ConcurrentHashMap<>();
        Map<Long, String> commandLines = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                ProcessHandle.current().descendants().forEach(p -> {
                    // Read each time: a child's first command line may still be its parent's, before its exec; an
                    // ended child (a zombie until reaped) has none, and keeps the one it had.
                    String line = commandLine(p.pid());
                    if (!line.isEmpty()) {
                        commandLines.put(p.pid(), line);
                    }
                    PeakRss.kib(p.pid()).ifPresent(kib -> peakKib.merge(p.pid(), kib, Math::max));
                });
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "client-rss-sampler");
        sampler.setDaemon(true);
        sampler.start();
        Map<String, Double> mib = new LinkedHashMap<>();
        // two clients at a time (each cell in its own folder): a driver's peak is its own, whatever runs beside it
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        // Each cell's progress lines are kept: when a driver left no sample, they say whether its cell was played.
        Map<ClientKind, java.io.ByteArrayOutputStream> progress = new java.util.EnumMap<>(ClientKind.class);
        try {
            List<java.util.concurrent.Future<?>> runs = new java.util.ArrayList<>();
            for (ClientKind client : MEASURED) {
                java.io.ByteArrayOutputStream lines = new java.io.ByteArrayOutputStream();
                progress.put(client, lines);
                runs.add(pool.submit(() -> {
                    try (PrintStream cell = new PrintStream(lines, true, StandardCharsets.UTF_8)) {
                        ClientsRunner.run(List.of(ClientCases.all().get(0)), client, ServerKind.JAVA, Transport.STDIO, folder, plan.home(),
                                null, null, cell);
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
            running.set(false);
            sampler.join();
        }
        for (ClientKind client : MEASURED) {
            String marker = client.artifact(plan.home()).toString();
            long kib = commandLines.entrySet().stream().filter(e -> e.getValue().contains(marker))
                    .mapToLong(e -> peakKib.getOrDefault(e.getKey(), 0L)).max().orElse(0);
            if (kib == 0) {
                throw new IllegalStateException("no RSS sample of the " + client.label() + " client's driver (" + marker + "); its cell: "
                        + progress.get(client).toString(StandardCharsets.UTF_8).strip());
            }
            mib.put(client.label() + "_client_driver", kib / 1024.0);
        }
        return mib;
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (Exception e) {
            return "";
        }
    }
}
