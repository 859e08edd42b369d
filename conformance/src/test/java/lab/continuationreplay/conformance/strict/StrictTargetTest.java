package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StrictTargetTest {
    private static final String TOKEN = "tok-0123456789abcdef0123456789abcdef";
    private static final String OTHER = "oth-0123456789abcdef0123456789abcdef";

    @Test
    void anyHttpOrHttpsUrlIsATargetNotOnlyLoopback() {
        StrictTarget target = StrictTarget.of("https://mcp.example.com/v1/mcp", TOKEN, OTHER, 600L);
        assertEquals("mcp.example.com", target.url().getHost());
        assertTrue(target.hasTwoPrincipals());
        assertEquals(Optional.of(Duration.ofSeconds(600)), target.stateTtl());
        assertFalse(StrictTarget.of("http://127.0.0.1:8080/mcp", null, null, null).hasTwoPrincipals());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "|--url is required",
            "not a url|--url is not a URL",
            "ftp://host/mcp|--url must be an http or https URL with a host",
            "/mcp|--url must be an http or https URL with a host",
            "http://user:secret@host/mcp|--url must not carry credentials"})
    void aBadUrlIsOneLineNamingTheOption(String url, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StrictTarget.of(url, null, null, null));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void aBadTokenIsRefusedWithoutRepeatingIt() {
        String injected = TOKEN + "\r\nX-Evil: 1";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StrictTarget.of("http://h/mcp", injected, null, null));
        assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
        assertTrue(e.getMessage().startsWith("--bearer must be a bearer token"));
        assertThrows(IllegalArgumentException.class, () -> StrictTarget.of("http://h/mcp", TOKEN, "two words", null));
    }

    @Test
    void theSecondPrincipalNeedsTheFirstAndAnotherToken() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StrictTarget.of("http://h/mcp", null, OTHER, null))
                .getMessage().contains("give the first one's --bearer too"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StrictTarget.of("http://h/mcp", TOKEN, TOKEN, null))
                .getMessage().contains("not the --bearer token again"));
    }

    @ParameterizedTest
    @CsvSource({"0", "-5", "86401"})
    void theLifetimeIsBounded(long seconds) {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StrictTarget.of("http://h/mcp", null, null, seconds))
                .getMessage().startsWith("--state-ttl must be between 1 second and 86400 seconds"));
    }

    @Test
    void tokensAreNeverShownAndAreRedactedFromAnyText() {
        StrictTarget target = StrictTarget.of("http://h/mcp", TOKEN, OTHER, null);
        assertFalse(target.toString().contains(TOKEN) || target.toString().contains(OTHER), target.toString());
        assertEquals("echo: Bearer [bearer token], [other bearer token]", target.redact("echo: Bearer " + TOKEN + ", " + OTHER));
    }
}
