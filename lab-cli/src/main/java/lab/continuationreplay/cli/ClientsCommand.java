package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.checker.CaseRecord;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.history.Judgement;
import lab.continuationreplay.matrix.clients.ClientsRunner;
import lab.continuationreplay.matrix.report.ClientsReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "clients",
        mixinStandardHelpOptions = true,
        description = {
            "Drives the five guarded servers with the official SDK clients (Java SDK 2.2.0, @modelcontextprotocol/client"
                    + " 2.4.0, Python mcp 2.3.0, Go go-sdk v1.8.0, Rust rmcp 3.11.0) over stdio or Streamable HTTP, through a recording relay: the client cases (manual rounds, the automatic"
                    + " retry after a lost reply, a reply dropped while the server stays up, ...) in each client x"
                    + " server cell. The runner keeps the history (client records, transcripts, databases, exits); the"
                    + " checker judges every step against what the application was expected to see.",
            "Writes OUT/client-<client>-server-<server>/ per cell (OUT/client-<client>-server-<server>-http/ over HTTP) and OUT/clients.json, CLIENTS.md, report.html. Exit 0"
                    + " only if every case holds in every cell, or fails exactly as an expected failure of the client"
                    + " SDK lists (each with its finding page); a listed one that passes is exit 1. See docs/clients.md."
        })
final class ClientsCommand implements Callable<Integer> {
    @Option(names = "--out", description = "Output folder (default: target/attempts/clients-<UTC time>). Never overwritten.")
    Path out;

    @Option(names = "--client", split = ",", description = "java, typescript, python, go, rust or all (default: all).")
    List<String> clients = List.of("all");

    @Option(names = "--sdk", split = ",", description = "The servers: java, typescript, python, go, rust or all (default: all).")
    List<String> sdks = List.of("all");

    @Option(names = "--transport", description = "stdio (the client starts each server), http (the lab starts each server"
            + " with --http 0 behind a recording HTTP relay; the client gets its URL and a bearer token) or all"
            + " (default: stdio).")
    String transport = "stdio";

    @Option(names = "--cross", description = "Only the cells where one SDK's client drives the other SDK's server (each"
            + " client and each server still runs, in half the cells).")
    boolean cross;

    @Option(names = "--cases", split = ",", description = "Only these client cases, e.g. 03-auto,dropped-reply (default: all).")
    List<String> only;

    @Option(names = "--request-timeout-ms", description = "The clients' request timeout in the case that drops a reply, set"
            + " on every request (default: 3000): the dropped reply is noticed after this long. The other cases wait at least 30 s.")
    long requestTimeoutMs = 3000;

    @Option(names = "--default-timeouts", description = "Leave each client's own request timeout (measures it: the"
            + " dropped-reply case then waits as long as the SDK does, e.g. 60 s for TypeScript).")
    boolean defaultTimeouts;

    @Option(names = "--jobs", description = "How many cells run side by side (default: 2, or 1 on a one-core machine).")
    Integer jobs;

    /** {@code , expected failures 1 (case dropped-reply: docs/findings/...)}, or nothing when there is none. */
    private static String expectedFailures(Verdict verdict) {
        List<String> which = verdict.records().stream()
                .filter(r -> CaseRecord.Status.EXPECTED_FAILURE.wire().equals(r.path("status").asText()))
                .map(r -> "case " + r.path("case_id").asText() + ": " + r.path("expected_failure").path("finding").asText())
                .toList();
        return which.isEmpty() ? "" : ", expected failures " + which.size() + " (" + String.join("; ", which) + ")";
    }

    @Override
    public Integer call() throws Exception {
        Path home = LabHome.resolve();
        if (requestTimeoutMs < 100 || requestTimeoutMs > 600_000) {
            throw new IllegalArgumentException("--request-timeout-ms must be between 100 and 600000");
        }
        List<ClientKind> clientKinds = clients.contains("all") ? ClientKind.ALL
                : clients.stream().map(ClientKind::fromLabel).toList();
        List<ServerKind> servers = chosenServers();
        List<Transport> transports = transport.equals("all") ? List.of(Transport.STDIO, Transport.HTTP)
                : List.of(Transport.fromLabel(transport));
        if (only != null) {
            only.forEach(ClientCaseId::of);
        }
        List<ClientCase> cases = ClientCases.all().stream().filter(c -> only == null || only.contains(c.id().label())).toList();
        for (ClientExpectedFailure expected : ClientCases.expectedFailures()) {
            Judgement.requireFinding(home, expected.finding(), "the expected failure of " + expected.client() + " in case "
                    + expected.caseId().label());
        }
        if (cross && clientKinds.stream().allMatch(c -> servers.stream().allMatch(s -> s.label().equals(c.label())))) {
            throw new IllegalArgumentException("--cross leaves no cell: the clients and the servers are the same SDK");
        }
        Path folder = OutputFolder.of(out, home, "clients");
        OutputFolder.requireNewOrEmpty(folder);
        Files.createDirectories(folder);
        Map<String, List<JsonNode>> records = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        boolean ok = runCells(home, folder, cases, clientKinds, servers, transports, records, lines);
        JsonNode report = ClientsReport.write(folder, records);
        List<String> differing = new ArrayList<>();
        report.path("cases").forEach(c -> {
            if (!c.path("same_seen").asBoolean()) {
                differing.add(c.path("case_id").asText());
            }
        });
        lines.forEach(Streams.stdout()::println);
        Streams.stdout().println("differences " + (differing.isEmpty() ? "none: every cell saw the same in every case"
                : "cases " + String.join(", ", differing) + " (expected per cell; see CLIENTS.md)"));
        Streams.stdout().println("evidence   " + folder);
        Streams.stdout().flush();
        return ok ? 0 : 1;
    }

    /** The SDKs of {@code --sdk}, the control refused. */
    private List<ServerKind> chosenServers() {
        List<ServerKind> servers = new ArrayList<>();
        for (String label : sdks.contains("all") ? ServerKind.sdkLabels() : sdks) {
            ServerKind server = ServerKind.fromLabel(label);
            if (server == ServerKind.UNGUARDED) {
                throw new IllegalArgumentException("the unguarded control is not an SDK under test");
            }
            servers.add(server);
        }
        return servers;
    }

    /**
     * Every cell in its own job, each judged from its history as it ends; {@code records} and {@code lines} get each
     * cell's records and stdout line in the cells' order. True when every cell's verdict is ok.
     */
    private boolean runCells(Path home, Path folder, List<ClientCase> cases, List<ClientKind> clientKinds, List<ServerKind> servers,
            List<Transport> transports, Map<String, List<JsonNode>> records, List<String> lines) throws Exception {
        Duration timeout = defaultTimeouts ? null : Duration.ofMillis(requestTimeoutMs);
        Map<String, Future<Verdict>> runs = new LinkedHashMap<>();
        ExecutorService pool = Jobs.pool(jobs);
        boolean ok = true;
        // one set of tokens for the whole run, deleted with it; only an HTTP cell asks for any
        try (BearerCredentials credentials = new BearerCredentials()) {
            for (Transport over : transports) {
                for (ClientKind client : clientKinds) {
                    for (ServerKind server : servers) {
                        if (cross && client.label().equals(server.label())) {
                            continue;
                        }
                        String cell = ClientsRunner.cell(client, server, over);
                        runs.put(cell, pool.submit(() -> {
                            ClientsRunner.run(cases, client, server, over, folder, home, timeout, credentials, Streams.stderr());
                            return AttemptCheck.deriveAndWrite(folder.resolve(cell));
                        }));
                    }
                }
            }
            for (Map.Entry<String, Future<Verdict>> run : runs.entrySet()) {
                Verdict verdict = Jobs.result(run.getValue());
                records.put(run.getKey(), verdict.records());
                ok &= verdict.ok();
                lines.add(String.format("%-32s requested %d, executed %d, passed %d%s; checker (history only): %s", run.getKey(),
                        verdict.requested(), verdict.executed(), verdict.passed(), expectedFailures(verdict),
                        verdict.problems().isEmpty() ? "no problem" : verdict.problems()));
            }
        } finally {
            pool.shutdownNow();
        }
        return ok;
    }
}
