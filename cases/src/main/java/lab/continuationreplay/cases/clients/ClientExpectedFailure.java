package lab.continuationreplay.cases.clients;

import java.util.List;

/**
 * A client case that a client SDK itself cannot pass in some cells: the lab's notion of an expected failure, as
 * {@code lab conformance} keeps it (the side, the case, the reason, where in the SDK the cause lives, a finding page
 * with the smallest reproduction), plus the exact violations the checker must find there. The cell is an expected
 * failure only if the checker finds exactly those; any other or any missing violation is a failure, and a pass means
 * the SDK changed and the entry and its page must be updated.
 *
 * @param client     the client SDK whose behaviour it is ({@code python})
 * @param servers    the servers it holds against (each cell of the client against one of them)
 * @param violations the checker's violations, word for word, in its order
 */
public record ClientExpectedFailure(ClientCaseId caseId, String client, List<String> servers, ClientTransport transport,
        List<String> violations, String reason, String sdkLocation, String finding) {
    /** The side that fails: the client SDK, in {@code lab conformance}'s words. */
    public static final String SIDE = "client";

    public ClientExpectedFailure {
        servers = List.copyOf(servers);
        violations = List.copyOf(violations);
        if (violations.isEmpty()) {
            throw new IllegalArgumentException(caseId.label() + ": an expected failure lists the violations it expects");
        }
        for (String text : List.of(client, reason, sdkLocation, finding)) {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException(caseId.label() + ": an expected failure needs its client, reason,"
                        + " SDK location and finding");
            }
        }
    }

    /** Whether it concerns case {@code id} in the cell of {@code client} driving {@code server} over {@code over}. */
    public boolean covers(ClientCaseId id, String client, String server, ClientTransport over) {
        return caseId == id && this.client.equals(client) && servers.contains(server) && transport == over;
    }

    /** The cells it concerns, as expectations name them ({@code python-client/java-server/http}). */
    public List<String> cells() {
        return servers.stream().map(server -> ClientCase.cell(client, server, transport)).toList();
    }
}
