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
import lab.continuationreplay.cases.clients.ClientTransport;
import lab.continuationreplay.history.Layout;

/**
 * Which client cells the test command plays, and why that is enough: the runs of the client ITs, and the cells where
 * {@link ClientCases} expects something other than a case's own expectation (a pair, a transport, a client over a
 * transport, a pair over a transport), derived from the cases with the lookup order of
 * {@link ClientCase.Expectation#differs}. Whatever those runs leave out, {@link #remaining()} plays: a new per-cell
 * expectation is never left unrun.
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

    /** LabClientsIT: the Java and TypeScript clients against their own two servers, every case, stdio. */
    static final Run STDIO_JAVA_TYPESCRIPT = new Run(List.of(ClientTransport.STDIO), List.of("java", "typescript"),
            List.of("java", "typescript"), false, ALL_CASES);
    /** LabClientsQuickIT: the Python, Go and Rust clients against every server, case 03, stdio. */
    static final Run STDIO_OTHER_CLIENTS_QUICK = new Run(List.of(ClientTransport.STDIO), List.of("python", "go", "rust"), SDKS, false,
            List.of(ClientCaseId.LOST_REPLY_THEN_EXPLICIT_REPLAY));
    /** LabClientsHttpIT: the Java and TypeScript clients over HTTP in the two cross cells, every case. */
    static final Run HTTP_JAVA_TYPESCRIPT_CROSS = new Run(List.of(ClientTransport.HTTP), List.of("java", "typescript"),
            List.of("java", "typescript"), true, ALL_CASES);
    static final List<Run> NAMED_ITS = List.of(STDIO_JAVA_TYPESCRIPT, STDIO_OTHER_CLIENTS_QUICK, HTTP_JAVA_TYPESCRIPT_CROSS);

    private ClientsTestPlan() {}

    /** Every cell of every case, client, server and transport where an expectation differs from its case's. */
    static Set<Cell> differing() {
        Set<Cell> cells = new LinkedHashSet<>();
        for (ClientCase spec : ClientCases.all()) {
            for (ClientTransport transport : ClientTransport.values()) {
                for (String client : SDKS) {
                    for (String server : SDKS) {
                        String cell = ClientCase.cell(client, server, transport);
                        if (spec.expectations().stream().anyMatch(e -> e.differs(cell).isPresent())) {
                            cells.add(new Cell(spec.id(), client, server, transport));
                        }
                    }
                }
            }
        }
        return cells;
    }

    /** The cells the named ITs play. */
    static Set<Cell> named() {
        Set<Cell> cells = new LinkedHashSet<>();
        NAMED_ITS.forEach(run -> cells.addAll(run.cells()));
        return cells;
    }

    /**
     * The differing cells the named ITs leave out, as one run per case: the transports, clients and servers they name
     * (a run plays their product, so a few cells with their case's expectations come along; one run per case saves a
     * lab start per transport).
     */
    static List<Run> remaining() {
        Set<Cell> named = named();
        Map<ClientCaseId, List<Cell>> byCase = new LinkedHashMap<>();
        for (Cell cell : differing()) {
            if (!named.contains(cell)) {
                byCase.computeIfAbsent(cell.id(), k -> new ArrayList<>()).add(cell);
            }
        }
        List<Run> runs = new ArrayList<>();
        byCase.forEach((id, cells) -> {
            List<ClientTransport> transports = List.of(ClientTransport.values()).stream()
                    .filter(t -> cells.stream().anyMatch(c -> c.transport() == t)).toList();
            List<String> clients = SDKS.stream().filter(s -> cells.stream().anyMatch(c -> c.client().equals(s))).toList();
            List<String> servers = SDKS.stream().filter(s -> cells.stream().anyMatch(c -> c.server().equals(s))).toList();
            runs.add(new Run(transports, clients, servers, false, List.of(id)));
        });
        return runs;
    }
}
