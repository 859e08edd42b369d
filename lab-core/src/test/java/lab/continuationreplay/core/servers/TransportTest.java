package lab.continuationreplay.core.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import lab.continuationreplay.history.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A transport's label and the attempt folder it gives an SDK, which Layout.sdkOf reads back. */
class TransportTest {
    @Test
    void eachTransportIsFoundByItsLabel() {
        for (Transport transport : Transport.values()) {
            assertEquals(transport, Transport.fromLabel(transport.label()));
        }
        assertEquals("stdio", Transport.STDIO.label());
        assertEquals("http", Transport.HTTP.label());
    }

    @Test
    void theAttemptFolderOfAnSdkOverEachTransportIsOfThatSdk() {
        assertEquals("java", Transport.STDIO.attempt("java"));
        assertEquals("java-http", Transport.HTTP.attempt("java"));
        assertEquals("typescript-http", Transport.HTTP.attempt("typescript"));
        for (Transport transport : Transport.values()) {
            for (String sdk : new String[] {"java", "typescript", "unguarded"}) {
                assertEquals(sdk, Layout.sdkOf(transport.attempt(sdk)));
                assertEquals(sdk, Layout.sdkOf(Layout.HTTP_CASES_PREFIX + sdk));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "HTTP", "Stdio", "", "https"})
    void anyOtherLabelIsRefusedNamingTheChoices(String label) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Transport.fromLabel(label));
        assertEquals("unknown transport '" + label + "' (stdio, http or all)", e.getMessage());
    }
}
