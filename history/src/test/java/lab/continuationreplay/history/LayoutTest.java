package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which SDK an attempt folder is of, for every form an attempt's name takes. */
class LayoutTest {
    @ParameterizedTest(name = "{0} is of {1}")
    @CsvSource(delimiter = '|', textBlock = """
            java                         | java
            typescript                   | typescript
            java-http                    | java
            typescript-http              | typescript
            http-cases-java              | java
            http-cases-typescript        | typescript
            unguarded                    | unguarded
            unguarded-http               | unguarded
            cross-java-to-typescript     | cross-java-to-typescript
            client-java-server-java      | client-java-server-java
            """)
    void anAttemptIsOfTheSdkItsNameCarries(String attempt, String sdk) {
        assertEquals(sdk, Layout.sdkOf(attempt));
    }

    @ParameterizedTest(name = "{0} is of {1}")
    @CsvSource(delimiter = '|', textBlock = """
            http-cases-java-http | java
            java-http-http       | java-http
            http-http            | http
            -http                | ''
            http-cases-          | ''
            javahttp             | javahttp
            """)
    void onlyTheOnePrefixAndTheOneSuffixAreTakenOff(String attempt, String sdk) {
        assertEquals(sdk, Layout.sdkOf(attempt));
    }
}
