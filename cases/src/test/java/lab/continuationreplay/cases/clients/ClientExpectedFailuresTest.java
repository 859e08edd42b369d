package lab.continuationreplay.cases.clients;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every expected failure of a client names a finding page that exists, as lab clients checks before a run. */
class ClientExpectedFailuresTest {
    @Test
    void everyEntryNamesAFindingPageThatExists() {
        for (ClientExpectedFailure entry : ClientCases.expectedFailures()) {
            assertTrue(entry.finding().startsWith("docs/findings/") && Files.isRegularFile(Path.of("..").resolve(entry.finding())),
                    entry.finding());
            assertTrue(entry.servers().stream().allMatch(s -> !s.isBlank()), entry.toString());
        }
    }
}
