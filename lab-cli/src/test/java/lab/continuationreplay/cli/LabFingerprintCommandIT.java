package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code lab fingerprint} as a user runs it: the packaged jar, stdin, stdout, stderr and the exit status. */
class LabFingerprintCommandIT {
    static final String KEY_VARIABLE = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX";
    static final String TEST_KEY = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262";
    static final String VECTOR_00 = "{\"principal\":\"alice\",\"tool_id\":\"create_issue\",\"tool_version\":\"1.0\","
            + "\"arguments\":{\"title\":\"spec\"},\"continuation_state\":\"awaiting-body\","
            + "\"input_responses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}}";
    static final String DIGEST_00 = "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97";

    private static LabProcess.Result fingerprint(String stdin) throws Exception {
        return LabProcess.run(List.of("fingerprint"), Map.of(KEY_VARIABLE, TEST_KEY), stdin);
    }

    @Test
    void printsTheWorkedExampleDigest() throws Exception {
        LabProcess.Result r = fingerprint(VECTOR_00 + "\n");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(DIGEST_00 + "\n", r.stdout());
        assertEquals("", r.stderr());
    }

    @Test
    void printsNamesForNamedLinesAndSkipsBlankOnes() throws Exception {
        LabProcess.Result r = fingerprint("\n{\"name\":\"caf\u00e9\",\"request\":" + VECTOR_00 + "}\n\n" + VECTOR_00);
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("caf\u00e9\t" + DIGEST_00 + "\n" + DIGEST_00 + "\n", r.stdout());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":[1]}",
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"n\":1.5}}",
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"n\":9007199254740992}}",
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"s\":\"\\ud800\"}}",
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"\\udc00\":1}}",
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{},\"x\":1}",
        "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"n\":NaN}}",
        "not json"})
    void aBadLineStopsWithItsLineNumberAndStatusTwo(String bad) throws Exception {
        LabProcess.Result r = fingerprint(VECTOR_00 + "\n" + bad + "\n" + VECTOR_00 + "\n");
        assertEquals(2, r.exitCode());
        assertEquals(DIGEST_00 + "\n", r.stdout(), "lines before the bad one are still answered");
        assertTrue(r.stderr().startsWith("line 2: "), r.stderr());
        assertEquals(1, r.stderr().lines().count(), r.stderr());
    }

    @Test
    void keyProblemsExitTwoNamingTheVariableNeverTheValue() throws Exception {
        String shortKey = "ab".repeat(31);
        String nonHex = "xy".repeat(32);
        Map<String, String> cases = Map.of(
                "", KEY_VARIABLE + " is not set",
                shortKey, KEY_VARIABLE + " must contain at least 32 bytes",
                nonHex, KEY_VARIABLE + " must be an even-length hexadecimal string",
                "abc", KEY_VARIABLE + " must be an even-length hexadecimal string");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Map<String, String> env = c.getKey().isEmpty() ? Map.of() : Map.of(KEY_VARIABLE, c.getKey());
            LabProcess.Result r = LabProcess.run(List.of("fingerprint"), env, VECTOR_00 + "\n");
            assertEquals(2, r.exitCode(), c.getValue());
            assertEquals(c.getValue() + "\n", r.stderr());
            assertEquals("", r.stdout());
            if (!c.getKey().isEmpty()) {
                assertFalse(r.stderr().contains(c.getKey()), "the key value must not be echoed");
            }
        }
    }

    @Test
    void invalidUtf8IsABadLine() throws Exception {
        byte[] input = "{\"principal\":\"\u00ff\"}\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        LabProcess.Result r = LabProcess.run(List.of("fingerprint"), Map.of(KEY_VARIABLE, TEST_KEY), input);
        assertEquals(2, r.exitCode());
        assertEquals("line 1: invalid UTF-8\n", r.stderr());
    }

    @Test
    void keepGoingAnswersEveryLine() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("fingerprint", "--keep-going"), Map.of(KEY_VARIABLE, TEST_KEY),
                "[]\n" + VECTOR_00 + "\n");
        assertEquals(2, r.exitCode());
        assertEquals("!a line must hold a JSON object\n" + DIGEST_00 + "\n", r.stdout());
    }

    @Test
    void unknownOptionsAreUsageErrors() throws Exception {
        LabProcess.Result r = LabProcess.run(List.of("fingerprint", "--frobnicate"), Map.of(KEY_VARIABLE, TEST_KEY), "");
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains("--frobnicate"), r.stderr());
    }
}
