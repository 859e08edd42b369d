package lab.continuationreplay.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import lab.continuationreplay.server.conformance.ConformanceProfile;
import lab.continuationreplay.server.http.Principals;
import org.junit.jupiter.api.Test;

class HttpModeTest {
    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("WIRE_SERVER_DB", "/tmp/unused.sqlite3");
        env.put("WIRE_BACKEND_ID", "unit");
        return env;
    }

    @Test
    void withoutArgumentsItIsStdioWithoutProfile() {
        HttpMode mode = HttpMode.of(new String[0], environment());
        assertFalse(mode.http());
        assertTrue(mode.conformance.isEmpty());
        assertTrue(mode.principals.isEmpty());
    }

    @Test
    void theSwitchNeedsHttpInEitherOrder() {
        HttpMode.CommandLineError alone = assertThrows(HttpMode.CommandLineError.class,
                () -> HttpMode.of(new String[] {"--conformance"}, environment()));
        assertEquals("--conformance needs --http", alone.getMessage());
        HttpMode before = HttpMode.of(new String[] {"--conformance", "--http", "0"}, environment());
        HttpMode after = HttpMode.of(new String[] {"--http", "0", "--conformance"}, environment());
        assertTrue(before.conformance.isPresent() && after.conformance.isPresent());
        assertEquals(ConformanceProfile.DEFAULT_STATE_TTL_SECONDS, after.conformance.get().stateTtlSeconds());
    }

    @Test
    void anythingElseIsTheUsage() {
        for (String[] args : new String[][] {{"--http"}, {"--conformance", "--conformance", "--http", "0"},
                {"--http", "0", "--http", "1"}, {"--http", "0", "extra"}}) {
            assertEquals(HttpMode.USAGE, assertThrows(HttpMode.CommandLineError.class,
                    () -> HttpMode.of(args, environment())).getMessage());
        }
    }

    @Test
    void onlyTheProfileServesWithoutTokensAndThenAsTheFixedPrincipal() {
        HttpMode profile = HttpMode.of(new String[] {"--http", "0", "--conformance"}, environment());
        assertEquals(new Principals.Fixed(ConformanceProfile.PRINCIPAL), profile.principals.orElseThrow());
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class,
                () -> HttpMode.of(new String[] {"--http", "0"}, environment()));
        assertTrue(plain.getMessage().contains("WIRE_BEARER_TOKENS_FILE"), plain.getMessage());
    }

    @Test
    void theProfileWithATokensFileStillReadsIt() {
        Map<String, String> env = environment();
        env.put("WIRE_BEARER_TOKENS_FILE", "/nonexistent/tokens.json");
        IllegalArgumentException unreadable = assertThrows(IllegalArgumentException.class,
                () -> HttpMode.of(new String[] {"--http", "0", "--conformance"}, env));
        assertTrue(unreadable.getMessage().contains("cannot be read"), unreadable.getMessage());
    }
}
