package lab.continuationreplay.matrix.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.vectors.FingerprintVectors;
import org.junit.jupiter.api.Test;

/**
 * Differential test: thousands of generated requests, and the hand-picked edges of {@link EdgeRequestLines}, through
 * the Java fingerprint and the real TypeScript, Python and Go CLI processes (each started once, all lines on its
 * stdin); every line must give the same digest, or the same rejection, in all four. A failure names the language and
 * the seed that replays it.
 */
class CrossLanguageFingerprintIT {
    private static final int REQUESTS = 2500;

    @Test
    void allFourLanguagesAgreeOnEveryGeneratedRequest() {
        long seed = Long.getLong("differential.seed", 20261202L);
        String replay = "seed " + seed + "; replay with -Ddifferential.seed=" + seed;
        List<String> lines = new ArrayList<>(new RandomRequestLines(seed).lines(REQUESTS));
        // The hand-picked edges go last, so the generated lines keep their numbers for a replayed seed.
        lines.addAll(EdgeRequestLines.lines());
        int total = lines.size();
        List<FingerprintImplementation> implementations = FingerprintImplementations.resolve(
                List.of(FingerprintLanguage.values()), LabHome.resolve(), Map.of(), Duration.ofSeconds(120));
        long started = System.nanoTime();
        Map<FingerprintLanguage, FingerprintImplementation.Outputs> outputs =
                FingerprintImplementations.runAll(implementations, FingerprintVectors.TEST_KEY_HEX, lines);
        System.out.printf("differential: %d generated and %d edge lines through every implementation side by side in %.1f s%n",
                REQUESTS, total - REQUESTS, (System.nanoTime() - started) / 1e9);

        List<String> java = outputs.get(FingerprintLanguage.JAVA).lines();
        assertEquals(total, java.size());
        List<String> disagreements = new ArrayList<>();
        for (FingerprintLanguage language : FingerprintLanguage.values()) {
            FingerprintImplementation.Outputs run = outputs.get(language);
            if (run.lines().size() != total) {
                fail(language.label() + " printed " + run.lines().size() + " lines for " + total + " requests (" + replay
                        + "), exit " + run.exitCode() + "; stderr: " + tail(run.stderr()));
            }
            assertEquals(2, run.exitCode(), language.label() + ": the CLI exits 2 when any line was rejected");
            for (int i = 0; i < total; i++) {
                if (!agree(java.get(i), run.lines().get(i))) {
                    disagreements.add(language.label() + ", line " + (i + 1) + ": " + lines.get(i)
                            + "\n  java:       " + java.get(i) + "\n  " + String.format("%-11s", language.label() + ":") + " "
                            + run.lines().get(i));
                }
            }
        }
        if (!disagreements.isEmpty()) {
            fail(disagreements.size() + " disagreements with Java (" + replay + "), first ones:\n"
                    + String.join("\n", disagreements.subList(0, Math.min(8, disagreements.size()))));
        }
        long rejections = java.subList(0, REQUESTS).stream().filter(CrossLanguageFingerprintIT::rejected).count();
        long digests = REQUESTS - rejections;
        System.out.printf("differential seed %d: %d digests and %d rejections agree in %s%n",
                seed, digests, rejections, String.join(", ", FingerprintLanguage.labels()));
        // The generator must exercise both outcomes in earnest, or the comparison proves little.
        assertTrue(digests >= 2000, "digests compared: " + digests);
        assertTrue(rejections >= 150, "rejections compared: " + rejections);
    }

    private static boolean rejected(String output) {
        return output.startsWith("!") || output.contains("\t!");
    }

    /** The same digest, or both rejected with the same message, except syntax errors, which each parser words its own way. */
    static boolean agree(String java, String other) {
        if (rejected(java) && rejected(other)) {
            return java.contains("!invalid JSON") && other.contains("!invalid JSON") || java.equals(other);
        }
        return java.equals(other);
    }

    private static String tail(String stderr) {
        return stderr.length() <= 2000 ? stderr : "…" + stderr.substring(stderr.length() - 2000);
    }
}
