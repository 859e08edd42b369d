package lab.continuationreplay.faults.secrets;

import lab.continuationreplay.faults.FaultKeys;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.servers.WireSettings;

/** The keys the lab hands to servers, and every spelling of them a leak could take. */
final class SecretForms {
    private SecretForms() {}

    /**
     * Every key the lab hands to a server, by name. The vector test key is not among them: it is public test data,
     * printed in the vector files and in the comparison report on purpose, so readers can reproduce the digests.
     */
    static Map<String, String> labKeysHex() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("matrix state key", WireSettings.STATE_KEY_HEX);
        keys.put("matrix fingerprint key", WireSettings.FINGERPRINT_KEY_HEX);
        keys.putAll(FaultKeys.all());
        return keys;
    }

    /** Hex (both cases), base64 and base64url (padded or not) and the raw bytes of one key. */
    static Map<String, byte[]> forms(String keyHex) {
        byte[] raw = HexFormat.of().parseHex(keyHex);
        Map<String, byte[]> forms = new LinkedHashMap<>();
        forms.put("hex", keyHex.toLowerCase().getBytes(StandardCharsets.US_ASCII));
        forms.put("HEX", keyHex.toUpperCase().getBytes(StandardCharsets.US_ASCII));
        for (Map.Entry<String, Base64.Encoder> encoder : List.of(
                Map.entry("base64", Base64.getEncoder()), Map.entry("base64url", Base64.getUrlEncoder()))) {
            String padded = encoder.getValue().encodeToString(raw);
            forms.put(encoder.getKey(), padded.getBytes(StandardCharsets.US_ASCII));
            forms.put(encoder.getKey() + " unpadded", padded.replace("=", "").getBytes(StandardCharsets.US_ASCII));
        }
        forms.put("raw", raw);
        return forms;
    }
}
