package lab.continuationreplay.matrix.run;

/** How a case's script ended: run to its end, or stopped by a machinery error (recorded in the history, never hidden). */
public sealed interface CaseOutcome permits CaseOutcome.Completed, CaseOutcome.Stopped {
    /** The one-line description of what stopped the script, or null when it ran to its end. */
    String machineryError();

    /** The script ran to its end: every verdict is the checker's, from the history. */
    record Completed() implements CaseOutcome {
        @Override
        public String machineryError() {
            return null;
        }
    }

    /** The script stopped: {@code error} says what stopped it (an exception's type and message). */
    record Stopped(String error) implements CaseOutcome {
        @Override
        public String machineryError() {
            return error;
        }
    }
}
