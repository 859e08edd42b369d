package lab.continuationreplay.store.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.LabFault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrustedEnvironmentTest {
    static final String KEY = "8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc";

    static Map<String, String> complete() {
        Map<String, String> env = new HashMap<>();
        env.put("WIRE_SERVER_DB", "/tmp/x/store.sqlite3");
        env.put("WIRE_BACKEND_ID", "sqlite:guarded-matrix");
        env.put("WIRE_PRINCIPAL", "alice");
        env.put("WIRE_CLOCK_EPOCH", "1790035200");
        env.put("WIRE_AUTHORITY_TTL", "300");
        env.put("WIRE_REPLAY_RETENTION_TTL", "360");
        env.put("WIRE_REQUEST_STATE_TTL", "600");
        env.put("WIRE_STATE_KEY_HEX", KEY);
        env.put("WIRE_FINGERPRINT_KEY_HEX", KEY.toUpperCase());
        return env;
    }

    @Test
    void readsACompleteEnvironment() {
        TrustedEnvironment env = new TrustedEnvironment(complete());
        assertEquals(Path.of("/tmp/x/store.sqlite3"), env.database());
        assertEquals("alice", env.principal());
        assertEquals(1790035200L, env.clockEpoch());
        assertEquals(300, env.authorityTtl());
        assertEquals(360, env.replayRetentionTtl());
        assertEquals(600, env.requestStateTtl());
        assertArrayEquals(java.util.HexFormat.of().parseHex(KEY), env.stateKey());
        assertTrue(env.fault().isEmpty());
        GuardConfig minting = env.guardConfig(true);
        assertTrue(minting.canMint());
        assertFalse(env.guardConfig(false).canMint());
    }

    @Test
    void theBridgeNeedsNoTtlsOrStateKey() {
        Map<String, String> env = complete();
        env.remove("WIRE_AUTHORITY_TTL");
        env.remove("WIRE_REPLAY_RETENTION_TTL");
        env.remove("WIRE_REQUEST_STATE_TTL");
        env.remove("WIRE_STATE_KEY_HEX");
        assertEquals("sqlite:guarded-matrix", new TrustedEnvironment(env).guardConfig(false).backendId());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            WIRE_SERVER_DB            | NULL      | WIRE_SERVER_DB is required
            WIRE_BACKEND_ID           | ''        | WIRE_BACKEND_ID is required
            WIRE_PRINCIPAL            | NULL      | WIRE_PRINCIPAL is required
            WIRE_CLOCK_EPOCH          | NULL      | WIRE_CLOCK_EPOCH is required
            WIRE_CLOCK_EPOCH          | soon      | WIRE_CLOCK_EPOCH must be numeric
            WIRE_CLOCK_EPOCH          | NaN       | WIRE_CLOCK_EPOCH must be finite
            WIRE_CLOCK_EPOCH          | Infinity  | WIRE_CLOCK_EPOCH must be finite
            WIRE_CLOCK_EPOCH          | 1790035200.5 | WIRE_CLOCK_EPOCH must be a whole number of seconds
            WIRE_CLOCK_EPOCH          | -1        | WIRE_CLOCK_EPOCH must not be negative
            WIRE_AUTHORITY_TTL        | 0         | WIRE_AUTHORITY_TTL must be positive
            WIRE_REPLAY_RETENTION_TTL | -5        | WIRE_REPLAY_RETENTION_TTL must be positive
            WIRE_REQUEST_STATE_TTL    | x         | WIRE_REQUEST_STATE_TTL must be numeric
            WIRE_REQUEST_STATE_TTL    | 1e30      | WIRE_REQUEST_STATE_TTL is too large
            WIRE_STATE_KEY_HEX        | abc       | WIRE_STATE_KEY_HEX must be hexadecimal
            WIRE_STATE_KEY_HEX        | zz        | WIRE_STATE_KEY_HEX must be hexadecimal
            WIRE_STATE_KEY_HEX        | 00ff      | WIRE_STATE_KEY_HEX must contain at least 32 bytes
            WIRE_FINGERPRINT_KEY_HEX  | NULL      | WIRE_FINGERPRINT_KEY_HEX is required
            """)
    void refusesABadValueNamingTheVariableOnly(String name, String value, String message) {
        Map<String, String> env = complete();
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        TrustedEnvironment trusted = new TrustedEnvironment(env);
        Function<TrustedEnvironment, Object> read = switch (name) {
            case "WIRE_SERVER_DB" -> TrustedEnvironment::database;
            case "WIRE_BACKEND_ID" -> TrustedEnvironment::backendId;
            case "WIRE_PRINCIPAL" -> TrustedEnvironment::principal;
            case "WIRE_CLOCK_EPOCH" -> TrustedEnvironment::clockEpoch;
            case "WIRE_AUTHORITY_TTL" -> TrustedEnvironment::authorityTtl;
            case "WIRE_REPLAY_RETENTION_TTL" -> TrustedEnvironment::replayRetentionTtl;
            case "WIRE_REQUEST_STATE_TTL" -> TrustedEnvironment::requestStateTtl;
            case "WIRE_STATE_KEY_HEX" -> TrustedEnvironment::stateKey;
            default -> TrustedEnvironment::fingerprintKey;
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read.apply(trusted));
        assertEquals(message, e.getMessage());
    }

    @Test
    void readsEachLabFault() {
        for (LabFault fault : LabFault.values()) {
            Map<String, String> env = complete();
            env.put("WIRE_FAULT", fault.wire());
            assertEquals(fault, new TrustedEnvironment(env).fault().orElseThrow());
        }
        Map<String, String> env = complete();
        env.put("WIRE_FAULT", "explode");
        assertThrows(IllegalArgumentException.class, () -> new TrustedEnvironment(env).fault());
    }
}
