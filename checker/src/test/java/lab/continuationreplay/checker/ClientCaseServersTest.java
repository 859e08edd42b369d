package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.history.Sdk;
import org.junit.jupiter.api.Test;

/** The client cases name their servers without seeing the SDK axis; here, where both are seen, they must agree. */
class ClientCaseServersTest {
    @Test
    void theCasesServersAreTheSdkColumns() {
        assertEquals(Sdk.labels(), ClientCases.SERVERS);
    }
}
