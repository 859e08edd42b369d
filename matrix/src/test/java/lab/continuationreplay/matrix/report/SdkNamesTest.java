package lab.continuationreplay.matrix.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SdkNamesTest {
    @Test
    void twoSdksAreComparedAndMoreAreListed() {
        assertEquals("Java SDK vs TypeScript SDK", SdkNames.title(List.of("java", "typescript")));
        assertEquals("Java SDK vs TypeScript SDK", SdkNames.title(List.of("java", "typescript", "java-http", "typescript-http")));
        assertEquals("Java, TypeScript, Python and Go SDKs", SdkNames.title(List.of("java", "typescript", "python", "go")));
        assertEquals("Go SDK", SdkNames.title(List.of("go")));
        assertEquals("No SDK", SdkNames.title(List.of()));
    }

    @Test
    void aColumnIsNamedByItsSdkAndTransport() {
        assertEquals("TypeScript over HTTP", SdkNames.of("typescript-http"));
        assertEquals("Python", SdkNames.of("python"));
        assertEquals("cobol", SdkNames.of("cobol"), "an unknown label is shown as it is");
        assertEquals("Rust over HTTP", SdkNames.of("rust-http"));
    }
}
