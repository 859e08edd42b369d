package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FingerprintKeyTest {
    private static final String VAR = "SOME_KEY_HEX";

    @Test
    void rejectsKeysShorterThan32Bytes() {
        assertEquals("fingerprint key must contain at least 32 bytes",
                assertThrows(IllegalArgumentException.class, () -> FingerprintKey.of(new byte[31])).getMessage());
        assertEquals("fingerprint key must contain at least 32 bytes",
                assertThrows(IllegalArgumentException.class, () -> FingerprintKey.of(null)).getMessage());
        assertEquals(VAR + " must contain at least 32 bytes",
                assertThrows(IllegalArgumentException.class, () -> FingerprintKey.fromHex("ab".repeat(31), VAR)).getMessage());
    }

    @Test
    void rejectsMissingOddAndNonHexTextNamingTheVariableNotTheValue() {
        assertEquals(VAR + " is not set",
                assertThrows(IllegalArgumentException.class, () -> FingerprintKey.fromHex(null, VAR)).getMessage());
        assertEquals(VAR + " is not set",
                assertThrows(IllegalArgumentException.class, () -> FingerprintKey.fromHex("", VAR)).getMessage());
        String odd = "a".repeat(65);
        String nonHex = "zz" + "ab".repeat(31);
        for (String bad : new String[] {odd, nonHex, "0x" + "ab".repeat(32), "ab".repeat(32) + " "}) {
            String message = assertThrows(IllegalArgumentException.class, () -> FingerprintKey.fromHex(bad, VAR)).getMessage();
            assertEquals(VAR + " must be an even-length hexadecimal string", message);
        }
    }

    @Test
    void acceptsUpperCaseHexAndNeverPrintsTheKey() {
        FingerprintKey upper = FingerprintKey.fromHex("AB".repeat(32), VAR);
        FingerprintKey lower = FingerprintKey.fromHex("ab".repeat(32), VAR);
        assertEquals(upper.hmacHex(new byte[] {1}), lower.hmacHex(new byte[] {1}));
        assertFalse(upper.toString().toLowerCase().contains("ab"));
    }

    @Test
    void copiesTheBytesItIsGiven() {
        byte[] bytes = new byte[32];
        FingerprintKey key = FingerprintKey.of(bytes);
        String before = key.hmacHex(new byte[0]);
        bytes[0] = 1;
        assertEquals(before, key.hmacHex(new byte[0]));
    }
}
