package lab.continuationreplay.faults.secrets;

import lab.continuationreplay.faults.FaultKeys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.servers.WireSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretScannerTest {
    @TempDir
    Path dir;

    @Test
    void everyFormOfAKeyIsItsOwnSpelling() {
        Map<String, byte[]> forms = SecretForms.forms(WireSettings.STATE_KEY_HEX);
        byte[] raw = HexFormat.of().parseHex(WireSettings.STATE_KEY_HEX);
        assertEquals(List.of("hex", "HEX", "base64", "base64 unpadded", "base64url", "base64url unpadded", "raw"),
                List.copyOf(forms.keySet()));
        assertArrayEquals(raw, forms.get("raw"));
        assertEquals(Base64.getEncoder().encodeToString(raw), new String(forms.get("base64"), StandardCharsets.US_ASCII));
        assertEquals(WireSettings.STATE_KEY_HEX.toUpperCase(), new String(forms.get("HEX"), StandardCharsets.US_ASCII));
        assertTrue(SecretForms.labKeysHex().containsValue(WireSettings.FINGERPRINT_KEY_HEX));
        assertTrue(SecretForms.labKeysHex().containsValue(FaultKeys.OTHER_STATE_KEY_HEX));
    }

    @Test
    void findsAPatternThatStraddlesTwoBlocksAndNamesTheFileOnce() throws Exception {
        byte[] pattern = "needle-in-a-large-transcript".getBytes(StandardCharsets.US_ASCII);
        byte[] content = new byte[(1 << 20) + 4096];
        int at = (1 << 20) - 10;
        System.arraycopy(pattern, 0, content, at, pattern.length);
        System.arraycopy(pattern, 0, content, 100, pattern.length);
        Files.write(dir.resolve("big.log"), content);
        Files.writeString(dir.resolve("clean.log"), "nothing here");
        SecretScanner.Result result = new SecretScanner(Map.of("needle", pattern)).scan(List.of(dir));
        assertEquals(2, result.files());
        assertEquals(content.length + "nothing here".length(), result.bytes());
        assertEquals(List.of(new SecretScanner.Hit(dir.resolve("big.log"), "needle")), result.hits());
    }

    @Test
    void aPatternOnlyAcrossTheBoundaryIsFoundToo() throws Exception {
        byte[] pattern = "boundary-pattern".getBytes(StandardCharsets.US_ASCII);
        byte[] content = new byte[(1 << 20) + 100];
        System.arraycopy(pattern, 0, content, (1 << 20) - 5, pattern.length);
        Files.write(dir.resolve("edge.bin"), content);
        assertEquals(1, new SecretScanner(Map.of("p", pattern)).scan(List.of(dir)).hits().size());
    }

    @Test
    void cleanFoldersHaveNoHits() throws Exception {
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/b/transcript.log"), "{\"requestState\":\"v1.abc\"}");
        SecretScanner scanner = new SecretScanner(Map.of("state key hex",
                WireSettings.STATE_KEY_HEX.getBytes(StandardCharsets.US_ASCII)));
        assertEquals(List.of(), scanner.scan(List.of(dir)).hits());
    }
}
