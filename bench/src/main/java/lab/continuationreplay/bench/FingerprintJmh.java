package lab.continuationreplay.bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HexFormat;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.LogicalRequest;
import lab.continuationreplay.vectors.LogicalRequestReader;
import lab.continuationreplay.vectors.RequestFingerprint;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH, benchmark 4: the Java request fingerprint of each request, and the bare cost under it: HMAC-SHA256 of the two
 * opaque fields' messages and SHA-256 of the canonical payload, over the same bytes, precomputed, reusing one Mac and
 * one MessageDigest; and the floor of row 4, the runtime's own serializer writing the payload before those hashes.
 */
public class FingerprintJmh {

    @State(Scope.Benchmark)
    public static class Request {
        @Param({FingerprintRequests.CASE_01, FingerprintRequests.ARGS_64_KIB})
        public String request;
        RequestFingerprint fingerprint;
        LogicalRequest logical;
        byte[] stateMessage;
        byte[] responsesMessage;
        byte[] payload;
        Mac mac;
        MessageDigest sha256;
        com.fasterxml.jackson.databind.JsonNode ordered;
        com.fasterxml.jackson.databind.ObjectWriter writer;

        @Setup(Level.Trial)
        public void prepare() throws Exception {
            byte[] key = HexFormat.of().parseHex(WireSettings.FINGERPRINT_KEY_HEX);
            fingerprint = new RequestFingerprint(FingerprintKey.of(key));
            logical = LogicalRequestReader.read(FingerprintRequests.all().get(request));
            stateMessage = opaqueMessage(RequestFingerprint.CONTINUATION_STATE, CanonicalJson.canonical(logical.continuationState()));
            responsesMessage = opaqueMessage(RequestFingerprint.INPUT_RESPONSES, CanonicalJson.canonical(logical.inputResponses()));
            ObjectNode bound = JsonNodeFactory.instance.objectNode();
            bound.put("principal", logical.principal());
            bound.put("tool_id", logical.toolId());
            bound.put("tool_version", logical.toolVersion());
            bound.set("arguments", logical.arguments());
            bound.put(RequestFingerprint.CONTINUATION_STATE, fingerprint.bindOpaqueField(RequestFingerprint.CONTINUATION_STATE, logical.continuationState()));
            bound.put(RequestFingerprint.INPUT_RESPONSES, fingerprint.bindOpaqueField(RequestFingerprint.INPUT_RESPONSES, logical.inputResponses()));
            payload = CanonicalJson.canonical(bound).getBytes(StandardCharsets.UTF_8);
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            sha256 = MessageDigest.getInstance("SHA-256");
            String check = HexFormat.of().formatHex(sha256.digest(payload));
            if (!check.equals(fingerprint.digest(logical))) {
                throw new IllegalStateException("the bare bytes are not the fingerprint's bytes");
            }
            // Jackson's tree keeps its members in the order read, so the payload read back is already canonical
            ordered = ExactJson.parse(new String(payload, StandardCharsets.UTF_8));
            writer = ExactJson.mapper().writer();
            if (!java.util.Arrays.equals(writer.writeValueAsBytes(ordered), payload)) {
                throw new IllegalStateException(request + ": Jackson does not write the canonical payload's bytes");
            }
        }

        private static byte[] opaqueMessage(String field, String canonical) {
            byte[] name = field.getBytes(StandardCharsets.UTF_8);
            byte[] value = canonical.getBytes(StandardCharsets.UTF_8);
            byte[] message = new byte[name.length + 1 + value.length];
            System.arraycopy(name, 0, message, 0, name.length);
            System.arraycopy(value, 0, message, name.length + 1, value.length);
            return message;
        }
    }

    /** The whole fingerprint: canonical JSON, two HMACs, SHA-256, hex. */
    @Benchmark
    public String fingerprint(Request state) {
        return state.fingerprint.digest(state.logical);
    }

    /**
     * Row 4's floor: the least any canonicaliser on this runtime must do on top of the hashing. Jackson writes the
     * payload from a tree already in canonical order (no checks, no sorting), then the same three hashes.
     */
    @Benchmark
    public void floor(Request state, Blackhole blackhole) throws Exception {
        blackhole.consume(state.mac.doFinal(state.stateMessage));
        blackhole.consume(state.mac.doFinal(state.responsesMessage));
        blackhole.consume(state.sha256.digest(state.writer.writeValueAsBytes(state.ordered)));
    }

    /** The same three hashes over precomputed bytes. */
    @Benchmark
    public void bareHashing(Request state, Blackhole blackhole) {
        blackhole.consume(state.mac.doFinal(state.stateMessage));
        blackhole.consume(state.mac.doFinal(state.responsesMessage));
        blackhole.consume(state.sha256.digest(state.payload));
    }
}
