package lab.continuationreplay.matrix.vectors;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.FingerprintVectors;
import lab.continuationreplay.vectors.RequestFingerprint;

/**
 * Runs every shared vector through the Java fingerprint and the TypeScript CLI, and checks the relations the vector
 * file promises (seed spec §2.6).
 */
public final class VectorComparison {
    static final String IDENTICAL = "01_identical_retry";

    /** Expected equalities and inequalities between vectors, checked in each language. */
    static final List<RelationSpec> RELATIONS = List.of(
            new RelationSpec(IDENTICAL, "08_concurrent_attempt_a", true),
            new RelationSpec("04_changed_input_responses", IDENTICAL, false),
            new RelationSpec("06_different_principal", IDENTICAL, false),
            new RelationSpec("11_metadata_stripped", IDENTICAL, false),
            new RelationSpec("unsafe_new_identity_retry", IDENTICAL, false));

    record RelationSpec(String left, String right, boolean equal) {}

    /** One vector: both digests (a digest or {@code !reason}). */
    public record Row(String name, String java, String typescript) {
        @JsonProperty("agree")
        public boolean agree() {
            return java != null && java.equals(typescript) && !java.startsWith("!");
        }
    }

    /** One promised relation and whether it holds in each language. */
    public record Relation(String left, String right, boolean equal, boolean holdsInJava, boolean holdsInTypeScript) {
        @JsonProperty("holds")
        public boolean holds() {
            return holdsInJava && holdsInTypeScript;
        }

        public String describe() {
            return left + (equal ? " == " : " != ") + right;
        }
    }

    /** The whole comparison; {@code pinnedDigest*} are null when the key is not the public test key. */
    public record Report(
            String keyLabel,
            List<Row> rows,
            List<Relation> relations,
            Boolean pinnedDigestJava,
            Boolean pinnedDigestTypeScript,
            String typeScriptStderr) {
        @JsonProperty("ok")
        public boolean ok() {
            return rows.stream().allMatch(Row::agree)
                    && relations.stream().allMatch(Relation::holds)
                    && !Boolean.FALSE.equals(pinnedDigestJava)
                    && !Boolean.FALSE.equals(pinnedDigestTypeScript);
        }

        @JsonProperty("agreeing")
        public long agreeing() {
            return rows.stream().filter(Row::agree).count();
        }
    }

    private VectorComparison() {}

    public static Report compare(String keyHex, TypeScriptFingerprintCli typeScript) {
        FingerprintKey key = FingerprintKey.fromHex(keyHex, "the vector key");
        RequestFingerprint fingerprint = new RequestFingerprint(key);
        List<FingerprintVectors.Vector> vectors = FingerprintVectors.load();

        Map<String, String> java = new LinkedHashMap<>();
        List<String> input = new ArrayList<>();
        for (FingerprintVectors.Vector vector : vectors) {
            java.put(vector.name(), javaDigest(fingerprint, vector));
            input.add(namedLine(vector));
        }
        TypeScriptFingerprintCli.Run run = typeScript.run(keyHex, input, true);
        Map<String, String> typeScriptDigests = parseNamedOutput(run.stdout());

        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, String> entry : java.entrySet()) {
            String ts = typeScriptDigests.getOrDefault(entry.getKey(), "!no output from the TypeScript CLI");
            rows.add(new Row(entry.getKey(), entry.getValue(), ts));
        }
        List<Relation> relations = new ArrayList<>();
        for (RelationSpec spec : RELATIONS) {
            relations.add(new Relation(spec.left(), spec.right(), spec.equal(),
                    relationHolds(java, spec), relationHolds(typeScriptDigests, spec)));
        }
        boolean testKey = FingerprintVectors.TEST_KEY_HEX.equalsIgnoreCase(keyHex);
        String first = "00_control_single_round";
        return new Report(
                testKey ? "public test key \"test-only-cross-language-key-32b\"" : "key from the environment",
                List.copyOf(rows),
                List.copyOf(relations),
                testKey ? FingerprintVectors.VECTOR_00_DIGEST.equals(java.get(first)) : null,
                testKey ? FingerprintVectors.VECTOR_00_DIGEST.equals(typeScriptDigests.get(first)) : null,
                run.stderr());
    }

    private static String javaDigest(RequestFingerprint fingerprint, FingerprintVectors.Vector vector) {
        try {
            return fingerprint.digest(vector.request());
        } catch (IllegalArgumentException e) {
            return "!" + e.getMessage();
        }
    }

    private static String namedLine(FingerprintVectors.Vector vector) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("name", vector.name());
        line.put("request", vector.requestJson());
        try {
            // ASCII-only on the pipe: every non-ASCII character travels as a \\u escape, exactly as in the file.
            return ExactJson.mapper()
                    .writer()
                    .with(com.fasterxml.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII)
                    .writeValueAsString(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise vector " + vector.name(), e);
        }
    }

    static Map<String, String> parseNamedOutput(List<String> lines) {
        Map<String, String> digests = new HashMap<>();
        for (String line : lines) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                digests.put(line.substring(0, tab), line.substring(tab + 1));
            }
        }
        return digests;
    }

    private static boolean relationHolds(Map<String, String> digests, RelationSpec spec) {
        String left = digests.get(spec.left());
        String right = digests.get(spec.right());
        if (left == null || right == null || left.startsWith("!") || right.startsWith("!")) {
            return false;
        }
        return left.equals(right) == spec.equal();
    }
}
