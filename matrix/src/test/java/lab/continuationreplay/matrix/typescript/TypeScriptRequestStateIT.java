package lab.continuationreplay.matrix.typescript;

import static lab.continuationreplay.matrix.typescript.Fixture.arguments;
import static lab.continuationreplay.matrix.typescript.Fixture.assertStateRejected;
import static lab.continuationreplay.matrix.typescript.Fixture.continuation;
import static lab.continuationreplay.matrix.typescript.Fixture.firstRound;
import static lab.continuationreplay.matrix.typescript.Fixture.structured;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import lab.continuationreplay.core.wire.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refused requestState, including one minted for other arguments, is the frozen JSON-RPC -32602
 * "Invalid or expired requestState" with data.reason invalid_request_state, and leaves no row.
 */
class TypeScriptRequestStateIT {
    @TempDir
    Path dir;

    @Test
    void aChangedTitleOrModeWithTheSameTokenIsRejectedAndTheFirstEffectStandsAlone() throws Exception {
        Path db = Fixture.database(dir);
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode args = arguments("case-05", "guarded-05");
            String token = firstRound(server, args);
            // before any commit: nothing may be applied under the changed title
            assertStateRejected(continuation(server, arguments("case-05", "changed"), "alpha", token));
            assertEquals(0, FixtureRows.operations(db));
            assertEquals(false, structured(continuation(server, args, "alpha", token)).get("replayed").booleanValue());
            assertStateRejected(continuation(server, arguments("case-05", "changed"), "alpha", token));
            assertStateRejected(continuation(server, args.deepCopy().put("mode", "partial"), "alpha", token));
            assertStateRejected(continuation(server, arguments("case-06", "guarded-05"), "alpha", token));
            // an explicit default is the same arguments
            assertEquals(true, structured(continuation(server, args.deepCopy().put("mode", "atomic"), "alpha", token))
                    .get("replayed").booleanValue());
        }
        assertEquals(1, FixtureRows.issues(db));
        assertEquals(1, FixtureRows.operations(db));
    }

    @Test
    void aTamperedTokenIsRejected() throws Exception {
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode args = arguments("case-05", "guarded-05");
            String token = firstRound(server, args);
            assertStateRejected(continuation(server, args, "alpha", Fixture.tampered(token)));
            assertStateRejected(continuation(server, args, "alpha", token.substring(0, token.length() - 2)));
            assertStateRejected(continuation(server, args, "alpha", "not-a-state"));
        }
        assertEquals(0, FixtureRows.operations(Fixture.database(dir)));
    }

    @Test
    void aNonStringTokenIsRejected() throws Exception {
        try (ServerProcess server = Fixture.start(dir)) {
            ObjectNode params = JsonNodeFactory.instance.objectNode();
            params.put("name", Fixture.GUARDED);
            params.set("arguments", arguments("case-05", "guarded-05"));
            params.set("inputResponses", Fixture.accepted("alpha"));
            params.put("requestState", 123);
            assertStateRejected(server.request("tools/call", params));
        }
    }

    @Test
    void anotherPrincipalCannotUseAlicesToken() throws Exception {
        ObjectNode args = arguments("case-05", "guarded-05");
        String token;
        try (ServerProcess alice = Fixture.start(dir)) {
            token = firstRound(alice, args);
        }
        Map<String, String> bob = Fixture.environment(dir);
        bob.put("WIRE_PRINCIPAL", "bob");
        try (ServerProcess server = Fixture.start(dir, bob)) {
            assertStateRejected(continuation(server, args, "alpha", token));
        }
        assertEquals(0, FixtureRows.operations(Fixture.database(dir)));
    }

    @Test
    void anotherKeyOrAnExpiredTokenIsRejected() throws Exception {
        ObjectNode args = arguments("case-05", "guarded-05");
        String token;
        try (ServerProcess alice = Fixture.start(dir)) {
            token = firstRound(alice, args);
        }
        Map<String, String> otherKey = Fixture.environment(dir);
        otherKey.put("WIRE_STATE_KEY_HEX", "00".repeat(32));
        try (ServerProcess server = Fixture.start(dir, otherKey)) {
            assertStateRejected(continuation(server, args, "alpha", token));
        }
        Map<String, String> later = Fixture.environment(dir);
        later.put("WIRE_CLOCK_EPOCH", Long.toString(Fixture.T0 + 601)); // the token's exp is T0 + 600
        try (ServerProcess server = Fixture.start(dir, later)) {
            assertStateRejected(continuation(server, args, "alpha", token));
        }
        assertEquals(0, FixtureRows.operations(Fixture.database(dir)));
    }

    @Test
    void aTokenIsBoundToItsTool() throws Exception {
        try (ServerProcess server = Fixture.start(dir)) {
            String token = firstRound(server, arguments("case-05", "guarded-05"));
            ObjectNode status = JsonNodeFactory.instance.objectNode().put("operation_id", "case-05");
            assertStateRejected(server.callTool(Fixture.STATUS, status, null, token));
        }
    }
}
