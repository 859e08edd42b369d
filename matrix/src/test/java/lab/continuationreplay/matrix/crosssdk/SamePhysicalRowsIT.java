package lab.continuationreplay.matrix.crosssdk;

import static lab.continuationreplay.matrix.javaserver.Servers.arguments;
import static lab.continuationreplay.matrix.javaserver.Servers.continuation;
import static lab.continuationreplay.matrix.javaserver.Servers.firstRound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.javaserver.Servers;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.StoreRows;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same calls against the Java server and the TypeScript fixture leave the same physical rows: both reach one
 * guard and one ledger implementation, so only what is inherently per-run (fingerprints over fresh nonces, wall-clock
 * stamps) may differ.
 */
class SamePhysicalRowsIT {
    private static final List<String> QUERIES = List.of(
            "SELECT id, title, body FROM issues ORDER BY id",
            "SELECT operation_id, principal, backend, state, effect_id, result, issued_at, authority_expires_at,"
                    + " replay_expires_at FROM operations ORDER BY operation_id",
            "SELECT operation_id, step, outcome, error_type FROM operation_events ORDER BY id",
            "SELECT issue_id, kind, outcome FROM compensations ORDER BY id",
            "SELECT issue_id, name FROM watchers ORDER BY id",
            "SELECT key, value FROM store_metadata ORDER BY key");

    @TempDir
    Path dir;

    @Test
    void javaAndTypeScriptLeaveIdenticalRowsForTheSameCalls() throws Exception {
        Map<String, List<Map<String, Object>>> java = runScript(ServerKind.JAVA, dir.resolve("java.sqlite3"));
        Map<String, List<Map<String, Object>>> typescript = runScript(ServerKind.TYPESCRIPT, dir.resolve("typescript.sqlite3"));
        assertFalse(java.get(QUERIES.get(1)).isEmpty());
        for (String query : QUERIES) {
            assertEquals(java.get(query), typescript.get(query), query);
        }
    }

    /** Atomic commit + replay, a conflicting answer, a partial operation, and a second atomic operation. */
    private Map<String, List<Map<String, Object>>> runScript(ServerKind kind, Path db) throws Exception {
        try (ServerProcess server = Servers.start(kind, WireSettings.matrix(db, "alice"), dir)) {
            ObjectNode first = arguments("same-01", "guarded-01");
            String token = firstRound(server, first);
            continuation(server, first, "alpha", token);
            continuation(server, first, "alpha", token);
            continuation(server, first, "beta", token);
            ObjectNode partial = arguments("same-12", "guarded-12").put("mode", "partial");
            continuation(server, partial, "alpha", firstRound(server, partial));
            ObjectNode second = arguments("same-02", "guarded-02");
            continuation(server, second, "gamma", firstRound(server, second));
        }
        Map<String, List<Map<String, Object>>> rows = new LinkedHashMap<>();
        for (String query : QUERIES) {
            rows.put(query, StoreRows.rows(db, query));
        }
        return rows;
    }
}
