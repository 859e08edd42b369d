package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FingerprintLinesTest {
    static final String VECTOR_00 = "{\"principal\":\"alice\",\"tool_id\":\"create_issue\",\"tool_version\":\"1.0\","
            + "\"arguments\":{\"title\":\"spec\"},\"continuation_state\":\"awaiting-body\","
            + "\"input_responses\":{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}}";

    private record Result(int exit, String out, String err) {}

    private static Result run(byte[] input, boolean keepGoing) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        FingerprintLines lines = new FingerprintLines(FingerprintKey.fromHex(FingerprintVectors.TEST_KEY_HEX, "k"));
        int exit = lines.run(new ByteArrayInputStream(input), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), keepGoing);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Result run(String input, boolean keepGoing) throws IOException {
        return run(input.getBytes(StandardCharsets.UTF_8), keepGoing);
    }

    @Test
    void printsOneDigestPerRequestAndSkipsBlankLines() throws IOException {
        Result r = run(VECTOR_00 + "\n\n  \t\r\n{\"name\":\"zero\",\"request\":" + VECTOR_00 + "}", false);
        assertEquals(0, r.exit());
        assertEquals(FingerprintVectors.VECTOR_00_DIGEST + "\nzero\t" + FingerprintVectors.VECTOR_00_DIGEST + "\n", r.out());
        assertEquals("", r.err());
    }

    @Test
    void stopsAtTheFirstBadLineCountingBlankLines() throws IOException {
        String bad = "{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"n\":1.5}}";
        Result r = run(VECTOR_00 + "\n\n" + bad + "\n" + VECTOR_00 + "\n", false);
        assertEquals(2, r.exit());
        assertEquals(FingerprintVectors.VECTOR_00_DIGEST + "\n", r.out());
        assertEquals("line 3: $.arguments.n: number must be an integer in the interoperable safe range\n", r.err());
    }

    @Test
    void keepGoingReportsEachBadLineInPlace() throws IOException {
        Result r = run("[]\n{\"name\":\"n\",\"request\":{}}\n" + VECTOR_00 + "\n", true);
        assertEquals(2, r.exit());
        assertEquals("!a line must hold a JSON object\nn\t!$.principal: required\n"
                + FingerprintVectors.VECTOR_00_DIGEST + "\n", r.out());
        assertEquals("line 1: a line must hold a JSON object\nline 2: $.principal: required\n", r.err());
    }

    @Test
    void rejectsInvalidUtf8() throws IOException {
        byte[] input = "{\"principal\":\"\u00ff\"}".getBytes(StandardCharsets.ISO_8859_1);
        Result r = run(input, false);
        assertEquals(2, r.exit());
        assertEquals("line 1: invalid UTF-8\n", r.err());
        // An encoded surrogate (CESU-8) is not UTF-8 either.
        Result cesu = run(new byte[] {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'}, false);
        assertEquals("line 1: invalid UTF-8\n", cesu.err());
    }

    @Test
    void rejectsSyntaxErrorsWithTheLineNumber() throws IOException {
        Result r = run(VECTOR_00 + "\n{\"principal\":", false);
        assertEquals(2, r.exit());
        assertEquals(true, r.err().startsWith("line 2: invalid JSON"), r.err());
    }

    @Test
    void emptyInputPrintsNothing() throws IOException {
        Result r = run("", false);
        assertEquals(0, r.exit());
        assertEquals("", r.out());
    }
}
