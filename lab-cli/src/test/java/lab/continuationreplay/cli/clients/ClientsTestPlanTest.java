package lab.continuationreplay.cli.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.cases.clients.ClientTransport;
import org.junit.jupiter.api.Test;

/** The client ITs play every cell where ClientCases expects something other than a case's own expectation. */
class ClientsTestPlanTest {

    @Test
    void theItsPlayEveryCellWithAnExpectationOfItsOwn() {
        Set<ClientsTestPlan.Cell> played = new LinkedHashSet<>(ClientsTestPlan.named());
        ClientsTestPlan.remaining().forEach(run -> played.addAll(run.cells()));
        Set<ClientsTestPlan.Cell> unplayed = new LinkedHashSet<>(ClientsTestPlan.differing());
        unplayed.removeAll(played);
        assertEquals(Set.of(), unplayed, "cells with an expectation of their own that no IT plays");
    }

    @Test
    void everyExpectedFailureCellIsPlayed() {
        Set<ClientsTestPlan.Cell> played = new LinkedHashSet<>(ClientsTestPlan.named());
        ClientsTestPlan.remaining().forEach(run -> played.addAll(run.cells()));
        for (ClientExpectedFailure expected : ClientCases.expectedFailures()) {
            for (String server : expected.servers()) {
                ClientsTestPlan.Cell cell = new ClientsTestPlan.Cell(expected.caseId(), expected.client(), server, expected.transport());
                assertTrue(played.contains(cell), cell.name());
            }
        }
    }

    /**
     * The derivation sees each kind of key: a pair in each of its cells; a transport, or a client over a transport, in
     * one cell per client (a named run's where there is one); an expected failure in each of its cells.
     */
    @Test
    void theDerivedSetHoldsTheKnownKindsOfDifference() {
        Set<ClientsTestPlan.Cell> differing = ClientsTestPlan.differing();
        assertTrue(differing.contains(new ClientsTestPlan.Cell(ClientCaseId.MANUAL_ROUND_AFTER_LIST_TOOLS, "typescript", "java",
                ClientTransport.STDIO)), "a pair");
        for (String client : ClientsTestPlan.SDKS) {
            List<String> servers = differing.stream().filter(c -> c.id() == ClientCaseId.DROPPED_REPLY && c.client().equals(client))
                    .peek(c -> assertEquals(ClientTransport.HTTP, c.transport(), "the http key only")).map(ClientsTestPlan.Cell::server).toList();
            if (client.equals("python")) {
                assertEquals(Set.copyOf(ClientsTestPlan.SDKS), Set.copyOf(servers), "the expected failure's every cell");
            } else if (client.equals("java") || client.equals("typescript")) {
                assertEquals(List.of(client.equals("java") ? "typescript" : "java"), servers, "the named cross cell stands for the http key");
            } else {
                assertEquals(List.of(client), servers, "its own SDK's server stands for the http key");
            }
        }
        // typescript-client/http in the named cross cell alone; typescript-client/rust-server/http is a pair's own
        assertTrue(differing.contains(new ClientsTestPlan.Cell(ClientCaseId.DEFAULT_VERSION_NEGOTIATION, "typescript", "java",
                ClientTransport.HTTP)), "a client over a transport, in the named cell");
        assertFalse(differing.contains(new ClientsTestPlan.Cell(ClientCaseId.DEFAULT_VERSION_NEGOTIATION, "typescript", "python",
                ClientTransport.HTTP)), "a client over a transport, in one cell only");
        assertTrue(differing.contains(new ClientsTestPlan.Cell(ClientCaseId.DEFAULT_VERSION_NEGOTIATION, "typescript", "rust",
                ClientTransport.HTTP)), "a pair over a transport");
        assertFalse(differing.contains(new ClientsTestPlan.Cell(ClientCaseId.IDENTICAL_RETRY, "java", "java", ClientTransport.STDIO)));
    }

    @Test
    void theRemainingRunsNameCasesAndCellsOnlyWhereNeeded() {
        for (ClientsTestPlan.Run run : ClientsTestPlan.remaining()) {
            assertEquals(1, run.cases().size());
            List<String> arguments = run.arguments(java.nio.file.Path.of("out"), 15000);
            assertTrue(arguments.contains("--cases") && arguments.contains("--request-timeout-ms"), arguments.toString());
        }
    }
}
