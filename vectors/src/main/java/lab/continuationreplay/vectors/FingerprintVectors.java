package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The shared vector files shipped in this module: the seed's, with the lab's expected digests added to the first. */
public final class FingerprintVectors {
    public static final String VECTORS_RESOURCE = "lab/continuationreplay/vectors/fingerprint_vectors.json";
    public static final String PORTABLE_RESOURCE = "lab/continuationreplay/vectors/portable-continuation-v1.json";

    /** ASCII "test-only-cross-language-key-32b": public test data, never a deployment secret. */
    public static final String TEST_KEY_HEX = HexFormat.of()
            .formatHex("test-only-cross-language-key-32b".getBytes(StandardCharsets.US_ASCII));
    /** Vector 00 under {@link #TEST_KEY_HEX}, as pinned by the seed (spec §2.5). */
    public static final String VECTOR_00_DIGEST = "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97";

    /** One vector: its name, the request as it stands in the file, and that request read as a LogicalRequest. */
    public record Vector(String name, JsonNode requestJson, LogicalRequest request) {}

    /** A relation the vector file promises between two vectors' digests, in every language and under any key. */
    public record Relation(String left, String right, boolean equal, String why) {
        public String describe() {
            return left + (equal ? " == " : " != ") + right;
        }
    }

    private FingerprintVectors() {}

    /** The file's {@code expected.digests}: what every language must give for each vector under {@link #TEST_KEY_HEX}. */
    public static java.util.Map<String, String> expectedDigests() {
        java.util.Map<String, String> digests = new java.util.LinkedHashMap<>();
        expected().path("digests").fields().forEachRemaining(e -> digests.put(e.getKey(), e.getValue().textValue()));
        if (digests.isEmpty()) {
            throw new IllegalStateException(VECTORS_RESOURCE + " holds no expected digests");
        }
        return java.util.Collections.unmodifiableMap(digests);
    }

    /** The file's {@code expected.relations}. */
    public static List<Relation> expectedRelations() {
        List<Relation> relations = new ArrayList<>();
        for (JsonNode r : expected().path("relations")) {
            relations.add(new Relation(r.path("left").textValue(), r.path("right").textValue(),
                    r.path("equal").booleanValue(), r.path("why").textValue()));
        }
        if (relations.isEmpty()) {
            throw new IllegalStateException(VECTORS_RESOURCE + " promises no relations");
        }
        return List.copyOf(relations);
    }

    private static JsonNode expected() {
        return ExactJson.parse(resourceText(VECTORS_RESOURCE)).path("expected");
    }

    public static List<Vector> load() {
        JsonNode root = ExactJson.parse(resourceText(VECTORS_RESOURCE));
        List<Vector> vectors = new ArrayList<>();
        for (JsonNode entry : root.path("vectors")) {
            NamedRequest named = LogicalRequestReader.readNamed(entry);
            vectors.add(new Vector(named.name(), entry.get("request"), named.request()));
        }
        if (vectors.isEmpty()) {
            throw new IllegalStateException(VECTORS_RESOURCE + " holds no vectors");
        }
        return List.copyOf(vectors);
    }

    public static JsonNode portableContinuation() {
        return ExactJson.parse(resourceText(PORTABLE_RESOURCE));
    }

    public static String resourceText(String resource) {
        try (InputStream in = FingerprintVectors.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
