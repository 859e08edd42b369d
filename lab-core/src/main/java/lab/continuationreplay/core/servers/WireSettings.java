package lab.continuationreplay.core.servers;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The trusted environment of one server process ({@code WIRE_*}). Defaults are the seed's matrix constants: backend
 * {@code sqlite:guarded-matrix}, T0 = 1790035200 (2026-09-22T00:00:00Z), TTLs 300/360/600, and synthetic keys
 * derived from public strings. These are lab keys for reproducible runs, not secrets of anyone's deployment; they
 * are still passed only through the environment and never written into evidence.
 */
public record WireSettings(
        Path database,
        String backendId,
        String principal,
        long clockEpoch,
        long authorityTtl,
        long retentionTtl,
        long requestStateTtl,
        String stateKeyHex,
        String fingerprintKeyHex,
        String fault) {

    public static final long T0 = 1790035200L;
    public static final String BACKEND = "sqlite:guarded-matrix";
    public static final String STATE_KEY_HEX = sha256Hex("synthetic guarded matrix state key");
    public static final String FINGERPRINT_KEY_HEX = sha256Hex("synthetic guarded matrix fingerprint key");

    /** The variables that carry keys: passed only through a process's environment, never written anywhere. */
    public static final java.util.Set<String> SECRET_VARIABLES = java.util.Set.of("WIRE_STATE_KEY_HEX", "WIRE_FINGERPRINT_KEY_HEX");

    public static WireSettings matrix(Path database, String principal) {
        return new WireSettings(database, BACKEND, principal, T0, 300, 360, 600, STATE_KEY_HEX, FINGERPRINT_KEY_HEX, null);
    }

    public WireSettings at(long epoch) {
        return new WireSettings(database, backendId, principal, epoch, authorityTtl, retentionTtl, requestStateTtl,
                stateKeyHex, fingerprintKeyHex, fault);
    }

    public WireSettings as(String otherPrincipal) {
        return new WireSettings(database, backendId, otherPrincipal, clockEpoch, authorityTtl, retentionTtl,
                requestStateTtl, stateKeyHex, fingerprintKeyHex, fault);
    }

    public WireSettings withFault(String labFault) {
        return new WireSettings(database, backendId, principal, clockEpoch, authorityTtl, retentionTtl, requestStateTtl,
                stateKeyHex, fingerprintKeyHex, labFault);
    }

    public WireSettings withTtls(long authority, long retention, long requestState) {
        return new WireSettings(database, backendId, principal, clockEpoch, authority, retention, requestState,
                stateKeyHex, fingerprintKeyHex, fault);
    }

    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WIRE_SERVER_DB", database.toString());
        env.put("WIRE_BACKEND_ID", backendId);
        env.put("WIRE_PRINCIPAL", principal);
        env.put("WIRE_CLOCK_EPOCH", Long.toString(clockEpoch));
        env.put("WIRE_AUTHORITY_TTL", Long.toString(authorityTtl));
        env.put("WIRE_REPLAY_RETENTION_TTL", Long.toString(retentionTtl));
        env.put("WIRE_REQUEST_STATE_TTL", Long.toString(requestStateTtl));
        env.put("WIRE_STATE_KEY_HEX", stateKeyHex);
        env.put("WIRE_FINGERPRINT_KEY_HEX", fingerprintKeyHex);
        if (fault != null) {
            env.put("WIRE_FAULT", fault);
        }
        return env;
    }

    @Override
    public String toString() {
        // Never print the keys, whatever they are.
        return "WireSettings[" + database + ", " + backendId + ", " + principal + ", clock " + clockEpoch + ", fault " + fault + "]";
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
