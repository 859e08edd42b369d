package lab.continuationreplay.matrix.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The language option and a row's verdict, without processes (the ITs run the real CLIs). */
class VectorComparisonTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);

    private static Map<String, String> digests(String... pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return out;
    }

    @Test
    void languagesAreParsedInTheGivenOrderAndAllMeansEveryOne() {
        assertEquals(List.of(FingerprintLanguage.values()), FingerprintLanguage.parse(List.of("all")));
        assertEquals(List.of(lab.continuationreplay.history.Sdk.values()),
                java.util.Arrays.stream(FingerprintLanguage.values()).map(FingerprintLanguage::sdk).toList(),
                "one fingerprint per SDK column, in column order, named as the column is");
        assertEquals(List.of(FingerprintLanguage.GO, FingerprintLanguage.JAVA), FingerprintLanguage.parse(List.of("go", "java")));
        assertEquals("unknown language 'cobol' (java, typescript, python, go, rust or all)",
                assertThrows(IllegalArgumentException.class, () -> FingerprintLanguage.parse(List.of("java", "cobol"))).getMessage());
        assertEquals("'python' is named twice",
                assertThrows(IllegalArgumentException.class, () -> FingerprintLanguage.parse(List.of("python", "python"))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> FingerprintLanguage.parse(List.of("all", "go")));
        assertThrows(IllegalArgumentException.class, () -> FingerprintLanguage.parse(List.of()));
    }

    @Test
    void againstTheExpectedDigestEveryOtherLanguageIsNamed() {
        VectorComparison.Row row = new VectorComparison.Row("v", A, digests("java", A, "typescript", B, "python", A, "go", "!boom"));
        assertFalse(row.agree());
        assertEquals(List.of("typescript", "go"), row.disagreeing());
        assertTrue(new VectorComparison.Row("v", A, digests("java", A, "go", A)).agree());
        // All four agreeing with each other is not enough when the file expects another digest.
        assertEquals(List.of("java", "go"), new VectorComparison.Row("v", B, digests("java", A, "go", A)).disagreeing());
    }

    @Test
    void withoutAnExpectedDigestTheMinorityIsNamedAndARejectionNeverAgrees() {
        assertEquals(List.of("python"), new VectorComparison.Row("v", null,
                digests("java", A, "typescript", A, "python", B, "go", A)).disagreeing());
        assertEquals(List.of("typescript"), new VectorComparison.Row("v", null, digests("java", A, "typescript", B)).disagreeing());
        assertEquals(List.of("java", "go"), new VectorComparison.Row("v", null, digests("java", "!x", "go", "!x")).disagreeing());
    }

    @Test
    void syntaxErrorsAgreeWhateverTheirWordingOtherRejectionsOnlyWordForWord() {
        assertTrue(CrossLanguageFingerprintIT.agree("!invalid JSON: x", "!invalid JSON at offset 3: y"));
        assertFalse(CrossLanguageFingerprintIT.agree("!$.a: required", "!$.a: missing"));
        assertFalse(CrossLanguageFingerprintIT.agree("!$.a: required", A));
        assertTrue(CrossLanguageFingerprintIT.agree("n\t" + A, "n\t" + A));
    }
}
