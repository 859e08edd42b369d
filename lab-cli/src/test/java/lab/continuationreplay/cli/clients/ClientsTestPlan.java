package lab.continuationreplay.cli.clients;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.cases.clients.ClientTransport;
import lab.continuationreplay.history.Layout;

/**
 * Which client cells the test command plays, and why that is enough: the runs of the client ITs, and the cells where
 * {@link ClientCases} expects something other than a case's own expectation (a pair, a transport, a client over a
 * transport, a pair over a transport), derived from the cases with the lookup order of
 * {@link ClientCase.Expectation#differs}. Whatever those runs leave out, {@link #remaining()} plays: a new per-cell
 * expectation is never left unrun. An entry for a whole transport, or for one client over a transport, says what a
 * client sees over it whatever the server: it is played once per client (against a server the named runs pair it
 * with, else its own SDK's), and {@code lab clients} plays it in every cell. Every cell of an expected failure is
 * played.
 */
final class ClientsTestPlan {
    static final List<String> SDKS = Layout.SDK_COLUMNS;

    /** One client, server, transport and case: the unit the expectations are written for. */
    record Cell(ClientCaseId id, String client, String server, ClientTransport transport) {
        String name() {
            return id.label() + " " + ClientCase.cell(client, server, transport);
        }
    }

    /** One {@code lab clients} run: every client against every server over every transport, less same-SDK cells if cross. */
    record Run(List<ClientTransport> transports, List<String> clients, List<String> servers, boolean cross, List<ClientCaseId> cases) {
        List<String> arguments(Path out, long requestTimeoutMs) {
            List<String> arguments = new ArrayList<>(List.of("clients", "--transport",
                    transports.size() == 2 ? "all" : transports.get(0).label(), "--client", String.join(",", clients),
                    "--sdk", String.join(",", servers)));
            if (cross) {
                arguments.add("--cross");
            }
            if (cases.size() < ClientCaseId.values().length) {
                arguments.add("--cases");
                arguments.add(String.join(",", cases.stream().map(ClientCaseId::label).toList()));
            }
            if (requestTimeoutMs > 0) {
                arguments.addAll(List.of("--request-timeout-ms", Long.toString(requestTimeoutMs)));
            }
            arguments.addAll(List.of("--out", out.toString()));
            return arguments;
        }

        Set<Cell> cells() {
            Set<Cell> cells = new LinkedHashSet<>();
            for (ClientCaseId id : cases) {
                for (ClientTransport transport : transports) {
                    for (String client : clients) {
                        for (String server : servers) {
                            if (!(cross && client.equals(server))) {
                                cells.add(new Cell(id, client, server, transport));
                            }
                        }
                    }
                }
            }
            return cells;
        }
    }

    private static final List<ClientCaseId> ALL_CASES = List.of(ClientCaseId.values());

    /**
     * LabClientsIT: the Java and the TypeScript client each against its own SDK's server, every case, stdio (their
     * cross cells play every case over HTTP, LabClientsHttpIT; over stdio they are {@code lab clients}' own).
     */
    static final Run STDIO_JAVA = new Run(List.of(ClientTransport.STDIO), List.of("java"), List.of("java"), false, ALL_CASES);
    static final Run STDIO_TYPESCRIPT = new Run(List.of(ClientTransport.STDIO), List.of("typescript"), List.of("typescript"), false,
            ALL_CASES);
    /** LabClientsQuickIT: the Python, Go and Rust clients against every server, case 03, stdio. */
    static final Run STDIO_OTHER_CLIENTS_QUICK = new Run(List.of(ClientTransport.STDIO), List.of("python", "go", "rust"), SDKS, false,
            List.of(ClientCaseId.LOST_REPLY_THEN_EXPLICIT_REPLAY));
    /** LabClientsHttpIT: the Java and TypeScript clients over HTTP in the two cross cells, every case. */
    static final Run HTTP_JAVA_TYPESCRIPT_CROSS = new Run(List.of(ClientTransport.HTTP), List.of("java", "typescript"),
            List.of("java", "typescript"), true, ALL_CASES);
    static final List<Run> NAMED_ITS = List.of(STDIO_JAVA, STDIO_TYPESCRIPT, STDIO_OTHER_CLIENTS_QUICK, HTTP_JAVA_TYPESCRIPT_CROSS);

    private ClientsTestPlan() {}

    /**
     * The cells whose expectations differ from their case's and must each be played: every one with an entry for its
     * cell or its pair, and every cell of an expected failure. Where only entries for the whole transport or for the
     * client over it apply, one cell per client and transport stands for them ({@link #transportWide}).
     */
    static Set<Cell> differing() {
        Set<Cell> cells = new LinkedHashSet<>();
        Set<Cell> named = named();
        for (ClientCase spec : ClientCases.all()) {
            for (ClientTransport transport : ClientTransport.values()) {
                for (String client : SDKS) {
                    List<Cell> wide = new ArrayList<>();
                    for (String server : SDKS) {
                        String cell = ClientCase.cell(client, server, transport);
                        List<String> keys = spec.expectations().stream().flatMap(e -> e.differingKey(cell).stream()).toList();
                        if (keys.isEmpty()) {
                            continue;
                        }
                        Cell played = new Cell(spec.id(), client, server, transport);
                        String clientOver = client + "-client/" + transport.label();
                        if (keys.stream().allMatch(k -> k.equals(transport.label()) || k.equals(clientOver))) {
                            wide.add(played);
                        } else {
                            cells.add(played);
                        }
                    }
                    transportWide(wide, named, client).ifPresent(cells::add);
                }
            }
        }
        for (ClientExpectedFailure failure : ClientCases.expectedFailures()) {
            failure.servers().forEach(server -> cells.add(new Cell(failure.caseId(), failure.client(), server, failure.transport())));
        }
        return cells;
    }

    /** Of one client's cells that only its transport's entries set apart: one the named runs play, else its own SDK's server's. */
    static java.util.Optional<Cell> transportWide(List<Cell> wide, Set<Cell> named, String client) {
        return wide.stream().filter(named::contains).findFirst()
                .or(() -> wide.stream().filter(c -> c.server().equals(client)).findFirst())
                .or(() -> wide.stream().findFirst());
    }

    /** The cells the named ITs play. */
    static Set<Cell> named() {
        Set<Cell> cells = new LinkedHashSet<>();
        NAMED_ITS.forEach(run -> cells.addAll(run.cells()));
        return cells;
    }

    /**
     * The differing cells the named ITs leave out, as one run per case and client: the transports and servers they
     * name for it (a run plays their product, so a few cells with their case's expectations may come along).
     */
    static List<Run> remaining() {
        Set<Cell> named = named();
        Map<List<Object>, List<Cell>> byCaseAndClient = new LinkedHashMap<>();
        for (Cell cell : differing()) {
            if (!named.contains(cell)) {
                byCaseAndClient.computeIfAbsent(List.of(cell.id(), cell.client()), k -> new ArrayList<>()).add(cell);
            }
        }
        List<Run> runs = new ArrayList<>();
        byCaseAndClient.forEach((key, cells) -> {
            List<ClientTransport> transports = List.of(ClientTransport.values()).stream()
                    .filter(t -> cells.stream().anyMatch(c -> c.transport() == t)).toList();
            List<String> servers = SDKS.stream().filter(s -> cells.stream().anyMatch(c -> c.server().equals(s))).toList();
            runs.add(new Run(transports, List.of(cells.get(0).client()), servers, false, List.of(cells.get(0).id())));
        });
        return runs;
    }
}
