package lab.continuationreplay.matrix.run;

import java.io.PrintStream;

/**
 * Told each time a case (or a control) of an attempt has been played: a line per case where stderr is a log, a live
 * board where it is a terminal. Progress is for the person watching; nothing reads it back.
 */
@FunctionalInterface
public interface CaseProgress {
    /**
     * {@code item} says what was played ({@code case 03 lost-reply...}); {@code machineryError} is null unless the
     * lab itself could not play it.
     */
    void played(String attempt, String item, String machineryError, long nanos);

    /** The plain form: one line per played item, the machinery error on a line of its own. */
    static CaseProgress lines(PrintStream out) {
        return (attempt, item, machineryError, nanos) -> {
            out.printf("%-15s %-51s %-6s %5d ms%n", attempt, item, machineryError == null ? "played" : "STOPPED", nanos / 1_000_000);
            if (machineryError != null) {
                out.println("           machinery error: " + machineryError);
            }
        };
    }
}
