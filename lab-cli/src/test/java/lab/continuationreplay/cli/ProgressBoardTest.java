package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBoardTest {
    private static final long SECOND = 1_000_000_000L;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong clock = new AtomicLong(100 * SECOND);

    private ProgressBoard board(boolean live) {
        return new ProgressBoard(out, List.of(new ProgressBoard.Row("java", 12), new ProgressBoard.Row("cross-SDK", 2),
                new ProgressBoard.Row("java-http", 3)), MatrixCommand::boardRow, live, clock::get);
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void offATerminalEachCaseIsOnePlainLineAsInACiLog() {
        try (ProgressBoard board = board(false)) {
            board.played("java", "case 01 happy-path", null, 1_234_000_000L);
            board.played("java", "case 02 lost-reply", "the server did not start", 5_000_000L);
        }
        assertEquals(String.format("%-15s %-51s %-6s %5d ms%n", "java", "case 01 happy-path", "played", 1234)
                + String.format("%-15s %-51s %-6s %5d ms%n", "java", "case 02 lost-reply", "STOPPED", 5)
                + "           machinery error: the server did not start\n", printed());
        assertFalse(printed().contains("\033"), "no cursor movement in a log");
    }

    @Test
    void onATerminalEachColumnIsOneLineWithItsCountElapsedAndEta() {
        try (ProgressBoard board = board(true)) {
            assertEquals(List.of("java             0/12   elapsed   0 s  ETA ?", "cross-SDK        0/2    elapsed   0 s  ETA ?",
                    "java-http        0/3    elapsed   0 s  ETA ?"), board.lines());
            clock.addAndGet(6 * SECOND);
            for (int i = 0; i < 3; i++) {
                board.played("java", "case 0" + i, null, SECOND);
            }
            board.played("cross-java-to-go", "case 09", null, SECOND);
            board.played("cross-java-to-go-http", "case 09", null, SECOND);
            board.played("http-cases-java", "case h1", null, SECOND);
            assertEquals(List.of("java             3/12   elapsed   6 s  ETA 18 s", "cross-SDK        1/2    elapsed   6 s  ETA 6 s",
                    "java-http        1/3    elapsed   6 s  ETA 12 s"), board.lines(), "the HTTP cross cell has no row here, so it is not counted");
            board.played("cross-python-to-go", "case 09", null, SECOND);
            assertEquals("cross-SDK        2/2    elapsed   6 s  done", board.lines().get(1));
        }
        String screen = printed();
        assertTrue(screen.startsWith("\r\033[2Kjava             0/12"), screen);
        assertTrue(screen.contains("\033[3A\r\033[2Kjava             1/12"), "each redraw moves up over the board: " + screen);
        assertFalse(screen.contains("case 0"), "no per-case lines on a terminal");
    }

    @Test
    void aMachineryErrorIsPrintedAboveTheBoardWhichIsDrawnAgainBelowIt() {
        try (ProgressBoard board = board(true)) {
            board.played("java", "case 04 crash-after-commit", "the server did not start", SECOND);
        }
        String screen = printed();
        int error = screen.indexOf("machinery error: the server did not start");
        assertTrue(error > 0, screen);
        assertTrue(screen.indexOf("java             1/12", error) > error, "the board follows the error: " + screen);
    }

    @Test
    void liveOnlyWhenTheLauncherSaysStderrIsATerminalThatCanMoveItsCursor() {
        assertTrue(ProgressBoard.liveFor(Map.of(ProgressBoard.TTY_VARIABLE, "1", "TERM", "xterm-256color")::get));
        assertFalse(ProgressBoard.liveFor(Map.of(ProgressBoard.TTY_VARIABLE, "1", "TERM", "dumb")::get));
        assertFalse(ProgressBoard.liveFor(Map.of(ProgressBoard.TTY_VARIABLE, "0")::get));
        assertFalse(ProgressBoard.liveFor(Map.<String, String>of()::get), "java -jar alone, with nothing said");
    }

    @Test
    void eachAttemptFindsItsRow() {
        assertEquals("typescript", MatrixCommand.boardRow("typescript"));
        assertEquals("go-http", MatrixCommand.boardRow("go-http"));
        assertEquals("cross-SDK", MatrixCommand.boardRow("cross-java-to-python"));
        assertEquals("cross-SDK-http", MatrixCommand.boardRow("cross-java-to-python-http"));
        assertEquals("python-http", MatrixCommand.boardRow("http-cases-python"));
        assertEquals("controls", MatrixCommand.boardRow("controls"));
    }
}
