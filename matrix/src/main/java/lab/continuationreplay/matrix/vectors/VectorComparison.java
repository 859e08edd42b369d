package lab.continuationreplay.matrix.vectors;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.FingerprintVectors;

/**
 * Runs every shared vector through each chosen language's fingerprint and checks that they all give the digest the
 * vector file expects (under the public test key), and the relations the file promises (seed spec §2.6).
 */
public final class VectorComparison {
    static final String FIRST = "00_control_single_round";

    /**
     * One vector: each language's output (a digest or {@code !reason}), in language order. In JSON each language is a
     * member of its own ({@code "java"}, {@code "typescript"}, …), as the two-language rows were.
     */
    @JsonPropertyOrder({"name", "expected"})
    public record Row(String name, String expected, @JsonIgnore Map<String, String> digests) {
        @JsonAnyGetter
        public Map<String, String> perLanguage() {
            return digests;
        }

        /** Every language gives the same digest, and it is the expected one when the file has it. */
        @JsonProperty("agree")
        public boolean agree() {
            return disagreeing().isEmpty();
        }

        /**
         * The languages that do not give the reference digest: the expected one when known, else the digest most
         * languages give (the earliest language's on a tie); a rejection never agrees.
         */
        @JsonProperty("disagreeing")
        public List<String> disagreeing() {
            String reference = expected != null ? expected : mostCommonDigest(digests);
            List<String> out = new ArrayList<>();
            digests.forEach((language, digest) -> {
                if (reference == null || !reference.equals(digest)) {
                    out.add(language);
                }
            });
            return out;
        }

        private static String mostCommonDigest(Map<String, String> digests) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            digests.values().stream().filter(d -> !d.startsWith("!")).forEach(d -> counts.merge(d, 1, Integer::sum));
            return counts.entrySet().stream()
                    .reduce((a, b) -> b.getValue() > a.getValue() ? b : a)
                    .map(Map.Entry::getKey)
                    .orElse(null);
        }
    }

    /** One promised relation and whether it holds in each language. */
    public record Relation(String left, String right, boolean equal, String why, @JsonProperty("holds_in") Map<String, Boolean> holdsIn) {
        @JsonProperty("holds")
        public boolean holds() {
            return holdsIn.values().stream().allMatch(Boolean::booleanValue);
        }

        public String describe() {
            return left + (equal ? " == " : " != ") + right;
        }
    }

    /**
     * The whole comparison. {@code pinnedDigest} (per language: vector 00 gives the seed's worked example) is null when
     * the key is not the public test key; {@code stderr} holds what each CLI printed there, when it printed anything.
     */
    public record Report(
            String keyLabel,
            List<String> languages,
            List<Row> rows,
            List<Relation> relations,
            @JsonProperty("pinned_digest") Map<String, Boolean> pinnedDigest,
            Map<String, String> stderr) {
        @JsonProperty("ok")
        public boolean ok() {
            return rows.stream().allMatch(Row::agree)
                    && relations.stream().allMatch(Relation::holds)
                    && (pinnedDigest == null || pinnedDigest.values().stream().allMatch(Boolean::booleanValue));
        }

        @JsonProperty("agreeing")
        public long agreeing() {
            return rows.stream().filter(Row::agree).count();
        }
    }

    private VectorComparison() {}

    public static Report compare(String keyHex, List<FingerprintImplementation> implementations) {
        FingerprintKey.fromHex(keyHex, "the vector key");
        if (implementations.isEmpty()) {
            throw new IllegalArgumentException("no language to compare");
        }
        List<FingerprintVectors.Vector> vectors = FingerprintVectors.load();
        boolean testKey = FingerprintVectors.TEST_KEY_HEX.equalsIgnoreCase(keyHex);
        Map<String, String> expected = testKey ? FingerprintVectors.expectedDigests() : Map.of();

        List<String> input = new ArrayList<>();
        for (FingerprintVectors.Vector vector : vectors) {
            input.add(namedLine(vector));
        }
        Printed printed = Printed.of(FingerprintImplementations.runAll(implementations, keyHex, input));
        List<Row> rows = rows(vectors, printed, expected, testKey);
        List<Relation> relations = relations(printed);
        Map<String, Boolean> pinned = testKey ? pinned(printed) : null;
        return new Report(
                testKey ? "public test key \"test-only-cross-language-key-32b\"" : "key from the environment",
                List.copyOf(printed.languages()),
                List.copyOf(rows),
                List.copyOf(relations),
                pinned,
                Collections.unmodifiableMap(printed.stderr()));
    }

    /**
     * What the implementations printed, by language label in the order they ran: each vector's digest by name, and
     * the stderr of those that printed any.
     */
    private record Printed(List<String> languages, Map<String, Map<String, String>> byLanguage, Map<String, String> stderr) {
        static Printed of(Map<FingerprintLanguage, FingerprintImplementation.Outputs> outputs) {
            List<String> languages = new ArrayList<>();
            Map<String, Map<String, String>> byLanguage = new LinkedHashMap<>();
            Map<String, String> stderr = new LinkedHashMap<>();
            for (Map.Entry<FingerprintLanguage, FingerprintImplementation.Outputs> entry : outputs.entrySet()) {
                String label = entry.getKey().label();
                languages.add(label);
                byLanguage.put(label, parseNamedOutput(entry.getValue().lines()));
                if (!entry.getValue().stderr().isEmpty()) {
                    stderr.put(label, entry.getValue().stderr());
                }
            }
            return new Printed(languages, byLanguage, stderr);
        }
    }

    private static List<Row> rows(List<FingerprintVectors.Vector> vectors, Printed printed, Map<String, String> expected,
            boolean testKey) {
        List<Row> rows = new ArrayList<>();
        for (FingerprintVectors.Vector vector : vectors) {
            Map<String, String> digests = new LinkedHashMap<>();
            for (String label : printed.languages()) {
                digests.put(label, printed.byLanguage().get(label).getOrDefault(vector.name(),
                        "!no output from the " + label + " fingerprint"));
            }
            String want = expected.get(vector.name());
            if (testKey && want == null) {
                throw new IllegalStateException("the vector file expects no digest for " + vector.name());
            }
            rows.add(new Row(vector.name(), want, Collections.unmodifiableMap(digests)));
        }
        return rows;
    }

    private static List<Relation> relations(Printed printed) {
        List<Relation> relations = new ArrayList<>();
        for (FingerprintVectors.Relation spec : FingerprintVectors.expectedRelations()) {
            Map<String, Boolean> holds = new LinkedHashMap<>();
            for (String label : printed.languages()) {
                holds.put(label, relationHolds(printed.byLanguage().get(label), spec));
            }
            relations.add(new Relation(spec.left(), spec.right(), spec.equal(), spec.why(), Collections.unmodifiableMap(holds)));
        }
        return relations;
    }

    /** Per language, whether vector 00 gives the seed's worked example (meaningful under the public test key only). */
    private static Map<String, Boolean> pinned(Printed printed) {
        Map<String, Boolean> pinned = new LinkedHashMap<>();
        for (String label : printed.languages()) {
            pinned.put(label, FingerprintVectors.VECTOR_00_DIGEST.equals(printed.byLanguage().get(label).get(FIRST)));
        }
        return Collections.unmodifiableMap(pinned);
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

    private static boolean relationHolds(Map<String, String> digests, FingerprintVectors.Relation spec) {
        String left = digests.get(spec.left());
        String right = digests.get(spec.right());
        if (left == null || right == null || left.startsWith("!") || right.startsWith("!")) {
            return false;
        }
        return left.equals(right) == spec.equal();
    }
}
