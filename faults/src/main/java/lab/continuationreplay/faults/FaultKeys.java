package lab.continuationreplay.faults;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keys that fault experiments use besides the matrix keys (another server's state key, say). They are derived from
 * public strings, like the matrix keys, and listed here so the secrets scan looks for them too.
 */
public final class FaultKeys {
    public static final String OTHER_STATE_KEY_HEX = sha256Hex("fault lab: another deployment's state key");

    private FaultKeys() {}

    public static Map<String, String> all() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("other state key", OTHER_STATE_KEY_HEX);
        return keys;
    }

    public static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
