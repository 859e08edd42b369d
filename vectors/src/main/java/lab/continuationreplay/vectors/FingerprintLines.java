package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The JSON Lines contract of both fingerprint CLIs (DESIGN.md): one output line per non-blank input line,
 * {@code digest} or {@code name<TAB>digest}; the first bad line stops with {@code line N: <reason>} on stderr and
 * exit status 2. With keep-going, a bad line prints {@code !<reason>} (after {@code name<TAB>} when the name is
 * known) in its place and processing continues. Mirrors {@code ts-fixture/src/fingerprint-cli.ts}.
 */
public final class FingerprintLines {
    public static final String KEY_VARIABLE = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX";
    public static final int EXIT_OK = 0;
    public static final int EXIT_BAD_INPUT = 2;

    /** What one line produced: the stdout line, and the reason when it has no digest. */
    public record Outcome(String output, String error) {
        public boolean ok() {
            return error == null;
        }
    }

    private final RequestFingerprint fingerprint;

    public FingerprintLines(FingerprintKey key) {
        this.fingerprint = new RequestFingerprint(key);
    }

    public Outcome fingerprintLine(byte[] line) {
        String name = null;
        try {
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(line))
                        .toString();
            } catch (CharacterCodingException e) {
                return new Outcome("!invalid UTF-8", "invalid UTF-8");
            }
            JsonNode parsed = ExactJson.parse(text);
            name = LogicalRequestReader.readName(parsed);
            String digest = fingerprint.digest(LogicalRequestReader.read(name == null ? parsed : parsed.get("request")));
            return new Outcome(name == null ? digest : name + "\t" + digest, null);
        } catch (IllegalArgumentException e) {
            String reason = e.getMessage();
            return new Outcome(name == null ? "!" + reason : name + "\t!" + reason, reason);
        }
    }

    public static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /** Processes {@code in} to the end (or the first bad line) and returns the exit status. */
    public int run(InputStream in, PrintStream out, PrintStream err, boolean keepGoing) throws IOException {
        InputStream input = new BufferedInputStream(in, 1 << 16);
        boolean failed = false;
        int lineNumber = 0;
        byte[] line;
        while ((line = readLine(input)) != null) {
            lineNumber++;
            if (isBlank(line)) {
                continue;
            }
            Outcome outcome = fingerprintLine(line);
            if (outcome.ok() || keepGoing) {
                out.print(outcome.output() + "\n");
            }
            if (!outcome.ok()) {
                failed = true;
                out.flush();
                err.print("line " + lineNumber + ": " + outcome.error() + "\n");
                err.flush();
                if (!keepGoing) {
                    return EXIT_BAD_INPUT;
                }
            }
        }
        out.flush();
        return failed ? EXIT_BAD_INPUT : EXIT_OK;
    }

    private static byte[] readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        int b;
        boolean any = false;
        while ((b = in.read()) != -1) {
            any = true;
            if (b == '\n') {
                return line.toByteArray();
            }
            line.write(b);
        }
        return any ? line.toByteArray() : null;
    }
}
