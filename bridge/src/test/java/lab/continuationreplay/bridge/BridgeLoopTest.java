package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BridgeLoopTest {
    @TempDir
    Path dir;

    private List<String> serve(byte[] input) throws Exception {
        try (IssueLedger ledger = IssueLedger.open(dir.resolve("store.sqlite3"), Requests.BACKEND)) {
            GuardConfig config = GuardConfig.withoutMinting("alice", Requests.BACKEND, Requests.NOW,
                    FingerprintKey.fromHex(Requests.FINGERPRINT_KEY_HEX, "WIRE_FINGERPRINT_KEY_HEX"));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new BridgeLoop(new ByteArrayInputStream(input), out, new BridgeService(new IssueGuard(config, ledger, FaultHook.NONE), ledger)).run();
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(true, text.isEmpty() || text.endsWith("\n"));
            return text.isEmpty() ? List.of() : List.of(text.split("\n", -1)).subList(0, text.split("\n", -1).length - 1);
        }
    }

    private static String kind(String reply) {
        return ExactJson.parse(reply).path("error").asText("ok");
    }

    @Test
    void answersEveryLineInOrderAndKeepsServingAfterBadOnes() throws Exception {
        String input = String.join("\n",
                Requests.apply("op-1", "t", "atomic", "a").toString(),
                "not json",
                Requests.status("op-1").toString(),
                "",
                "[1]",
                Requests.apply("op-1", "t", "atomic", "a").toString()) + "\n";
        List<String> replies = serve(input.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("ok", "invalid_application_request", "ok", "invalid_application_request",
                "invalid_application_request", "ok"), replies.stream().map(BridgeLoopTest::kind).toList());
        assertEquals(true, ExactJson.parse(replies.get(5)).at("/result/replayed").booleanValue());
    }

    @Test
    void anOversizeLineIsRefusedAndTheNextLineIsServed() throws Exception {
        String huge = "{\"op\":\"status\",\"operation_id\":\"" + "x".repeat(BridgeLoop.MAX_LINE_BYTES) + "\"}";
        List<String> replies = serve((huge + "\n" + Requests.status("op-1") + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(2, replies.size());
        assertEquals("{\"ok\":false,\"error\":\"invalid_application_request\",\"detail\":\"request line longer than 262144 bytes\"}",
                replies.get(0));
        assertEquals("unknown", ExactJson.parse(replies.get(1)).at("/result/state").textValue());
    }

    @Test
    void aLastLineWithoutNewlineIsAnsweredAndEmptyInputAnswersNothing() throws Exception {
        assertEquals(1, serve(Requests.bytes(Requests.status("op-1"))).size());
        assertEquals(List.of(), serve(new byte[0]));
    }
}
