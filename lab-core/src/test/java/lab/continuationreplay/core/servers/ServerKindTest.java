package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import lab.continuationreplay.history.Layout;
import org.junit.jupiter.api.Test;

class ServerKindTest {
    @Test
    void theSdkColumnsAreTheEvidenceFormatsInTheSameOrder() {
        // The runner writes a column per ServerKind.SDKS; the checker finds them by Layout.SDK_COLUMNS.
        assertEquals(Layout.SDK_COLUMNS, ServerKind.sdkLabels());
        assertFalse(ServerKind.SDKS.contains(ServerKind.UNGUARDED));
    }

    @Test
    void anSdkByLabelRefusesTheControlAndUnknownNames() {
        assertEquals(ServerKind.GO, ServerKind.sdk("go"));
        assertEquals("'unguarded' is not an SDK under test (java, typescript, python, go)",
                assertThrows(IllegalArgumentException.class, () -> ServerKind.sdk("unguarded")).getMessage());
        assertEquals("unknown server 'cobol' (java, typescript, python, go or unguarded)",
                assertThrows(IllegalArgumentException.class, () -> ServerKind.sdk("cobol")).getMessage());
    }

    @Test
    void theFixturesOnOtherSdksGetTheBridgeCommandAndTheJavaServersDoNot() {
        assertEquals(List.of(ServerKind.TYPESCRIPT, ServerKind.PYTHON, ServerKind.GO),
                ServerKind.SDKS.stream().filter(ServerKind::reachesLedgerThroughBridge).toList());
    }
}
