package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.history.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertEquals("'unguarded' is not an SDK under test (java, typescript, python, go, rust)",
                assertThrows(IllegalArgumentException.class, () -> ServerKind.sdk("unguarded")).getMessage());
        assertEquals("unknown server 'cobol' (java, typescript, python, go, rust or unguarded)",
                assertThrows(IllegalArgumentException.class, () -> ServerKind.sdk("cobol")).getMessage());
    }

    @Test
    void theFixturesOnOtherSdksGetTheBridgeCommandAndTheJavaServersDoNot() {
        assertEquals(List.of(ServerKind.TYPESCRIPT, ServerKind.PYTHON, ServerKind.GO, ServerKind.RUST),
                ServerKind.SDKS.stream().filter(ServerKind::reachesLedgerThroughBridge).toList());
    }

    /** Each SDK's control is that SDK's own server without the guard: Java's control class, each fixture with --unguarded. */
    @Test
    void eachSdksControlIsItsOwnServerWithoutTheGuard(@TempDir Path home) throws Exception {
        for (ServerKind kind : ServerKind.values()) {
            Files.createDirectories(kind.artifact(home).getParent());
            Files.writeString(kind.artifact(home), "");
        }
        Files.createDirectories(home.resolve("py-fixture/.venv/bin"));
        Files.writeString(home.resolve("py-fixture/.venv/bin/python"), "");
        List<String> java = ServerKind.JAVA.controlCommand(home, JvmLifetime.LONG);
        assertEquals(ServerKind.UNGUARDED.command(home, JvmLifetime.LONG), java);
        assertTrue(java.contains("lab.continuationreplay.server.UnguardedServerMain"), java.toString());
        for (ServerKind fixture : List.of(ServerKind.TYPESCRIPT, ServerKind.PYTHON, ServerKind.GO)) {
            List<String> control = fixture.controlCommand(home, JvmLifetime.SHORT);
            assertEquals(fixture.command(home, JvmLifetime.SHORT), control.subList(0, control.size() - 1));
            assertEquals("--unguarded", control.get(control.size() - 1));
        }
        assertEquals("the unguarded control has no control of its own",
                assertThrows(IllegalStateException.class, () -> ServerKind.UNGUARDED.controlCommand(home, JvmLifetime.SHORT)).getMessage());
    }
}
