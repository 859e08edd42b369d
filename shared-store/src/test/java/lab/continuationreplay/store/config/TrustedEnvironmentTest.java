package lab.continuationreplay.store.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The WIRE_* rules live in the shared table {@code vectors/rules/trusted-environment.json}, which
 * {@code ts-fixture/test/trusted-environment.test.ts} reads too; this class adds what only Java has.
 */
class TrustedEnvironmentTest {
    private static final RuleTable TABLE = RuleTable.load("trusted-environment.json");
    /** A fixed message: a fingerprint key is compared by what it computes (it does not hand out its bytes). */
    private static final byte[] PROBE = "probe".getBytes(StandardCharsets.US_ASCII);

    static List<RuleTable.Case> sharedTable() {
        return TABLE.cases(RuleTable.JAVA);
    }

    static Map<String, String> complete() {
        Map<String, String> env = new HashMap<>();
        TABLE.member("base").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().textValue()));
        return env;
    }

    /** What {@code variable} reads as: a string, a number of seconds, a key as hex (or its HMAC of PROBE), a fault or null. */
    private static Object read(TrustedEnvironment env, String variable) {
        return switch (variable) {
            case TrustedEnvironment.SERVER_DB -> env.database().toString();
            case TrustedEnvironment.BACKEND_ID -> env.backendId();
            case TrustedEnvironment.PRINCIPAL -> env.principal();
            case TrustedEnvironment.CLOCK_EPOCH -> env.clockEpoch();
            case TrustedEnvironment.AUTHORITY_TTL -> env.authorityTtl();
            case TrustedEnvironment.REPLAY_RETENTION_TTL -> env.replayRetentionTtl();
            case TrustedEnvironment.REQUEST_STATE_TTL -> env.requestStateTtl();
            case TrustedEnvironment.STATE_KEY_HEX -> HexFormat.of().formatHex(env.stateKey());
            case TrustedEnvironment.FINGERPRINT_KEY_HEX -> env.fingerprintKey().hmacHex(PROBE);
            case TrustedEnvironment.FAULT -> env.fault().map(LabFault::wire).orElse(null);
            default -> throw new IllegalArgumentException("no such variable in the table's format: " + variable);
        };
    }

    private static Object expectedValue(String variable, JsonNode accepted) {
        if (accepted.isNull()) {
            return null;
        }
        if (accepted.isNumber()) {
            return accepted.bigIntegerValue().longValueExact();
        }
        if (variable.equals(TrustedEnvironment.FINGERPRINT_KEY_HEX)) {
            return FingerprintKey.of(HexFormat.of().parseHex(accepted.textValue())).hmacHex(PROBE);
        }
        return accepted.textValue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedTable")
    void theSharedTable(RuleTable.Case rule) {
        String variable = rule.row().get("variable").textValue();
        Map<String, String> env = complete();
        if (rule.row().path("unset").asBoolean(false)) {
            env.remove(variable);
        } else {
            env.put(variable, rule.row().get("value").textValue());
        }
        TrustedEnvironment trusted = new TrustedEnvironment(env);
        JsonNode expected = rule.expected();
        if (expected.has("accepted")) {
            assertEquals(expectedValue(variable, expected.get("accepted")), read(trusted, variable), rule.name());
        } else {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(trusted, variable),
                    rule.name());
            assertEquals(expected.get("error").textValue(), e.getMessage(), rule.name());
        }
    }

    @Test
    void theTableAcceptsEveryLabFault() {
        Set<String> accepted = new HashSet<>();
        for (RuleTable.Case rule : sharedTable()) {
            if (rule.row().get("variable").textValue().equals(TrustedEnvironment.FAULT) && rule.expected().has("accepted")) {
                accepted.add(rule.expected().get("accepted").textValue());
            }
        }
        for (LabFault fault : LabFault.values()) {
            assertTrue(accepted.contains(fault.wire()), fault.wire());
        }
    }

    @Test
    void aCompleteEnvironmentMakesAMintingGuardConfig() {
        TrustedEnvironment env = new TrustedEnvironment(complete());
        GuardConfig minting = env.guardConfig(true);
        assertTrue(minting.canMint());
        assertEquals("alice", minting.principal());
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
}
