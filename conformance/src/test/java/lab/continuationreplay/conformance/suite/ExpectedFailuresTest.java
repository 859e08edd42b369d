package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpectedFailuresTest {
    private static final Requirements REQUIREMENTS = Requirements.parse("2026-07-28", RequirementsTest.LISTING);

    @TempDir
    Path home;

    @BeforeEach
    void aFindingPage() throws Exception {
        Files.createDirectories(home.resolve("docs/findings"));
        Files.writeString(home.resolve("docs/findings/sdk-limit.md"), "# a finding\n");
        Files.createDirectories(home.resolve(ExpectedFailures.FOLDER));
    }

    @Test
    void noFileMeansNoExpectedFailure() throws Exception {
        assertEquals(ExpectedFailures.none("java"), ExpectedFailures.read(home, "java", REQUIREMENTS));
    }

    @Test
    void anEntryNamesTheScenarioTheReasonTheSdkLocationAndTheFinding() throws Exception {
        file("java", entry("server", "tools-list"));
        ExpectedFailures read = ExpectedFailures.read(home, "java", REQUIREMENTS);
        ExpectedFailures.Entry entry = new ExpectedFailures.Entry(Side.SERVER, "tools-list", "the SDK adds a field",
                "io/modelcontextprotocol/X.java:10", "docs/findings/sdk-limit.md");
        assertEquals(Optional.of(entry), read.find(Side.SERVER, "tools-list"));
        assertEquals(Optional.empty(), read.find(Side.CLIENT, "tools-list"), "the side is part of the key");
    }

    @Test
    void moreThanThreeIsRefused() throws Exception {
        file("typescript", entry("server", "tools-list"), entry("server", "server-stateless"),
                entry("server", "input-required-result-request-state"), entry("client", "tools_call"));
        assertRefused("typescript", "conformance/expected-failures/typescript.json: 4 expected failures; at most 3 per SDK");
    }

    @Test
    void everyEntryIsCheckedAndARefusalNamesTheFileAndTheEntry() throws Exception {
        file("java", entry("server", "tasks-lifecycle"));
        assertRefused("java", "conformance/expected-failures/java.json: entry 1: tasks-lifecycle is not a scored server scenario of 2026-07-28");
        file("java", entry("server", "tools-list"), entry("server", "tools-list"));
        assertRefused("java", "conformance/expected-failures/java.json: entry 2: tools-list is listed twice");
        file("java", entry("server", "tools-list").replace("docs/findings/sdk-limit.md", "docs/findings/absent.md"));
        assertRefused("java", "conformance/expected-failures/java.json: entry 1: \"finding\" must name a page under docs/findings/ that"
                + " exists, not docs/findings/absent.md");
        file("java", entry("server", "tools-list").replace("\"the SDK adds a field\"", "\" \""));
        assertRefused("java", "conformance/expected-failures/java.json: entry 1: \"reason\" must be a non-empty string");
        file("java", entry("both", "tools-list"));
        assertRefused("java", "conformance/expected-failures/java.json: entry 1: unknown side 'both' (server or client)");
    }

    @Test
    void theFileCarriesItsFormatAndItsSdk() throws Exception {
        Files.writeString(home.resolve(ExpectedFailures.FOLDER).resolve("java.json"), "{\"sdk\":\"java\",\"entries\":[]}");
        IllegalArgumentException noFormat = assertThrows(IllegalArgumentException.class, () -> ExpectedFailures.read(home, "java", REQUIREMENTS));
        assertTrue(noFormat.getMessage().startsWith("conformance/expected-failures/java.json has no format version"), noFormat.getMessage());
        Files.writeString(home.resolve(ExpectedFailures.FOLDER).resolve("java.json"),
                "{\"format\":\"expected-failures/1\",\"sdk\":\"typescript\",\"entries\":[]}");
        assertRefused("java", "conformance/expected-failures/java.json: \"sdk\" must be \"java\"");
    }

    private void assertRefused(String sdk, String message) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ExpectedFailures.read(home, sdk, REQUIREMENTS));
        assertEquals(message, refused.getMessage());
    }

    private void file(String sdk, String... entries) throws Exception {
        Files.writeString(home.resolve(ExpectedFailures.FOLDER).resolve(sdk + ".json"), "{\"format\":\"expected-failures/1\",\"sdk\":\""
                + sdk + "\",\"entries\":[" + String.join(",", entries) + "]}");
    }

    private static String entry(String side, String scenario) {
        return "{\"side\":\"" + side + "\",\"scenario\":\"" + scenario + "\",\"reason\":\"the SDK adds a field\","
                + "\"sdk_location\":\"io/modelcontextprotocol/X.java:10\",\"finding\":\"docs/findings/sdk-limit.md\"}";
    }
}
