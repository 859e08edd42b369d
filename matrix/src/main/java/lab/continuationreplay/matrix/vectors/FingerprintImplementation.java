package lab.continuationreplay.matrix.vectors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.FingerprintLines;

/**
 * One language's fingerprint as the comparisons run it: lines of the CLI contract in, one output line per input line
 * out ({@code --keep-going}: a rejected line gives {@code !reason} in its place).
 */
public sealed interface FingerprintImplementation permits FingerprintImplementation.InJava, FingerprintCli {
    FingerprintLanguage language();

    /** Every line through this implementation once. */
    Outputs fingerprint(String keyHex, List<String> lines);

    /** What a run printed, line by line, its exit status and its stderr. */
    record Outputs(List<String> lines, int exitCode, String stderr) {}

    /** The Java fingerprint in this JVM, through the same {@link FingerprintLines} as {@code lab fingerprint}. */
    record InJava() implements FingerprintImplementation {
        @Override
        public FingerprintLanguage language() {
            return FingerprintLanguage.JAVA;
        }

        @Override
        public Outputs fingerprint(String keyHex, List<String> lines) {
            FingerprintLines java = new FingerprintLines(FingerprintKey.fromHex(keyHex, "the fingerprint key"));
            List<String> out = new ArrayList<>(lines.size());
            StringBuilder stderr = new StringBuilder();
            for (int i = 0; i < lines.size(); i++) {
                FingerprintLines.Outcome outcome = java.fingerprintLine(lines.get(i).getBytes(StandardCharsets.UTF_8));
                out.add(outcome.output());
                if (!outcome.ok()) {
                    stderr.append("line ").append(i + 1).append(": ").append(outcome.error()).append('\n');
                }
            }
            return new Outputs(List.copyOf(out), stderr.isEmpty() ? FingerprintLines.EXIT_OK : FingerprintLines.EXIT_BAD_INPUT,
                    stderr.toString());
        }
    }
}
