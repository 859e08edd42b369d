package lab.continuationreplay.core.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.store.stdio.WireStdout;
import org.junit.jupiter.api.Test;

class RelayArgumentsTest {
    private static RecordingRelay.Arguments parse(String... args) {
        return RecordingRelay.parse(args);
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> parse(args)).getMessage();
    }

    @Test
    void theOptionsAndEverythingAfterTheSeparator() {
        RecordingRelay.Arguments parsed = parse("--name", "crash", "--dir", "/tmp/x", "--", "java", "-jar", "s.jar", "--", "--name");
        assertEquals(RelayOptions.recording(Path.of("/tmp/x"), "crash"), parsed.options());
        assertEquals(List.of("java", "-jar", "s.jar", "--", "--name"), parsed.serverCommand(), "the server's own arguments are its own");
    }

    @Test
    void theDropCountsContinuationsFromOne() {
        RecordingRelay.Arguments parsed = parse("--dir", "d", "--name", "a", "--drop-reply-to-continuation", "2", "--", "cat");
        assertEquals(OptionalInt.of(2), parsed.options().dropReplyToContinuation());
        assertTrue(refusal("--dir", "d", "--name", "a", "--drop-reply-to-continuation", "0", "--", "cat").contains("counts from 1"));
        assertTrue(refusal("--dir", "d", "--name", "a", "--drop-reply-to-continuation", "two", "--", "cat")
                .startsWith("--drop-reply-to-continuation 'two' is not a whole number"));
    }

    @Test
    void badCommandLinesAreRefusedWithASentence() {
        assertTrue(refusal("--dir", "d", "--name", "a").startsWith("missing the server command after --"));
        assertTrue(refusal("--dir", "d", "--name", "a", "--").startsWith("missing the server command after --"));
        assertTrue(refusal("--dir", "d", "--", "cat").startsWith("--dir and --name are required"));
        assertTrue(refusal("--name", "a", "--", "cat").startsWith("--dir and --name are required"));
        assertTrue(refusal("--dir", "d", "--name", "a", "--verbose", "--", "cat").startsWith("unknown option '--verbose'"));
        assertEquals("--name needs a value", refusal("--dir", "d", "--name", "--", "cat"));
        assertEquals("--dir needs a value", refusal("--name", "a", "--dir"));
        assertEquals("--name is given twice", refusal("--dir", "d", "--name", "a", "--name", "b", "--", "cat"));
        assertEquals("--dir must name a folder", refusal("--dir", "", "--name", "a", "--", "cat"));
    }

    @Test
    void aNameIsTheStartOfAFileNameOnly() {
        for (String bad : List.of("", "../up", "a/b", ".hidden", "a~2", "with space", "x".repeat(101))) {
            assertTrue(refusal("--dir", "d", "--name", bad, "--", "cat").startsWith("--name '"), bad);
        }
        for (String good : List.of("a", "crash", "server-2.java_x", "x".repeat(100))) {
            assertEquals(good, parse("--dir", "d", "--name", good, "--", "cat").options().name());
        }
    }

    @Test
    void theCommandRunsTheRelayOnTheLabsClassPathAndParsesBackToItsOptions() {
        Path home = Path.of("/lab");
        RelayOptions options = RelayOptions.recording(Path.of("/out/case-03"), "crash").droppingReplyToContinuation(1);
        List<String> server = List.of("java", "-jar", "java-server.jar");
        List<String> command = RecordingRelay.command(home, options, server);
        assertTrue(command.get(0).endsWith("/bin/java"), command.get(0));
        assertEquals(WireStdout.JVM_OPTIONS, command.subList(1, 1 + WireStdout.JVM_OPTIONS.size()), "stdout stays the wire");
        int cp = command.indexOf("-cp");
        assertEquals(LabHome.labJar(home).toString(), command.get(cp + 1));
        assertEquals(RecordingRelay.class.getName(), command.get(cp + 2));
        List<String> arguments = command.subList(cp + 3, command.size());
        assertEquals(List.of("--dir", "/out/case-03", "--name", "crash", "--drop-reply-to-continuation", "1", "--", "java", "-jar",
                "java-server.jar"), arguments);
        RecordingRelay.Arguments back = RecordingRelay.parse(arguments.toArray(String[]::new));
        assertEquals(new RecordingRelay.Arguments(options, server), back);
    }

    @Test
    void anEmptyServerCommandIsRefusedWhenTheCommandIsBuilt() {
        assertThrows(IllegalArgumentException.class,
                () -> RecordingRelay.command(Path.of("/lab"), RelayOptions.recording(Path.of("d"), "a"), List.of()));
    }
}
