package lab.continuationreplay.vectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Strict JSON parsing that keeps every number exact (BigDecimal / BigInteger), so a 1.5, a 1e400 or a 2^53 reaches
 * the canonicaliser unrounded and is rejected there. Limits match {@code ts-fixture/src/exact-json.ts}.
 */
public final class ExactJson {
    public static final int MAX_PARSE_DEPTH = 1100;
    public static final int MAX_NUMBER_LITERAL_LENGTH = 1000;

    private static final ObjectMapper MAPPER = newMapper();

    private ExactJson() {}

    /** The shared mapper: exact numbers, trailing content rejected, a later duplicate key replaces an earlier one. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static JsonNode parse(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new CanonicalJsonException("invalid JSON: no value");
            }
            return node;
        } catch (StreamReadException e) {
            String reason = e.getOriginalMessage();
            if (reason != null && reason.contains("surrogate") && reason.contains("field name") && e.getProcessor() != null) {
                // Jackson refuses such a key while parsing; name the object holding it, as the TypeScript parser does.
                throw new CanonicalJsonException(pathOf(e.getProcessor().getParsingContext()) + ": "
                        + CanonicalJson.UNPAIRED_SURROGATE_IN_KEY);
            }
            throw new CanonicalJsonException("invalid JSON: " + firstLine(reason));
        } catch (JsonProcessingException e) {
            throw new CanonicalJsonException("invalid JSON: " + firstLine(e.getOriginalMessage()));
        }
    }

    /** The {@code $}-style path of a parsing context (the container being read). */
    static String pathOf(JsonStreamContext context) {
        if (context == null || context.inRoot() || context.getParent() == null) {
            return "$";
        }
        JsonStreamContext parent = context.getParent();
        String base = pathOf(parent);
        if (parent.inObject()) {
            return base + CanonicalJson.pathSegment(String.valueOf(parent.getCurrentName()));
        }
        if (parent.inArray()) {
            return base + "[" + parent.getCurrentIndex() + "]";
        }
        return base;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static ObjectMapper newMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .disable(JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS)
                .build();
        mapper.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_PARSE_DEPTH)
                        .maxNumberLength(MAX_NUMBER_LITERAL_LENGTH)
                        .build());
        return mapper;
    }
}
