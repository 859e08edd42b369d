package lab.continuationreplay.matrix.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.vectors.FingerprintLines;
import lab.continuationreplay.vectors.FingerprintVectors;
import org.junit.jupiter.api.Test;

/**
 * Differential test: thousands of generated requests through the Java fingerprint and the real TypeScript CLI
 * process; every line must give the same digest, or the same rejection, in both.
 */
class CrossLanguageFingerprintIT {
    private static final int REQUESTS = 2500;

    static TypeScriptFingerprintCli typeScriptCli() {
        return new TypeScriptFingerprintCli(LabHome.node(),
                LabHome.requireFile(LabHome.typeScriptFingerprintCli(LabHome.resolve()), "run the Maven build first"),
                Duration.ofSeconds(120));
    }

    @Test
    void javaAndTypeScriptAgreeOnEveryGeneratedRequest() {
        long seed = Long.getLong("differential.seed", 20261202L);
        List<String> lines = new RandomRequestLines(seed).lines(REQUESTS);
        FingerprintLines java = new FingerprintLines(
                lab.continuationreplay.vectors.FingerprintKey.fromHex(FingerprintVectors.TEST_KEY_HEX, "key"));
        List<String> javaOutputs = new ArrayList<>();
        for (String line : lines) {
            javaOutputs.add(java.fingerprintLine(line.getBytes(StandardCharsets.UTF_8)).output());
        }

        TypeScriptFingerprintCli.Run ts = typeScriptCli().run(FingerprintVectors.TEST_KEY_HEX, lines, true);
        assertEquals(REQUESTS, ts.stdout().size(), "one TypeScript output line per request; stderr: " + ts.stderr());

        int digests = 0;
        int rejections = 0;
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            String j = javaOutputs.get(i);
            String t = ts.stdout().get(i);
            boolean javaRejects = j.startsWith("!") || j.contains("\t!");
            boolean tsRejects = t.startsWith("!") || t.contains("\t!");
            boolean agree = javaRejects && tsRejects ? sameRejection(j, t) : j.equals(t);
            if (!agree) {
                disagreements.add("line " + (i + 1) + ": " + lines.get(i) + "\n  java: " + j + "\n  ts:   " + t);
            } else if (javaRejects) {
                rejections++;
            } else {
                digests++;
            }
        }
        if (!disagreements.isEmpty()) {
            fail(disagreements.size() + " disagreements (seed " + seed + "), first ones:\n"
                    + String.join("\n", disagreements.subList(0, Math.min(5, disagreements.size()))));
        }
        System.out.printf("differential seed %d: %d digests and %d rejections agree%n", seed, digests, rejections);
        // The generator must exercise both outcomes in earnest, or the comparison proves little.
        assertTrue(digests >= 2000, "digests compared: " + digests);
        assertTrue(rejections >= 150, "rejections compared: " + rejections);
        assertEquals(2, ts.exitCode(), "the CLI exits 2 when any line was rejected");
    }

    /** Both rejected: the messages must be equal too, except for syntax errors, which each parser words its own way. */
    private static boolean sameRejection(String java, String ts) {
        if (java.contains("!invalid JSON") && ts.contains("!invalid JSON")) {
            return true;
        }
        return java.equals(ts);
    }
}
