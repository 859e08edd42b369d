package lab.continuationreplay.matrix.run;

import java.nio.file.Path;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.core.servers.ServerKind;

/** Runs one case's script in its folder; any exception is recorded as a machinery error, never hidden. */
public final class CaseRun {
    private CaseRun() {}

    /** Returns null when the script ran to the end, else a one-line description of what stopped it. */
    public static String execute(MatrixCase matrixCase, ServerKind sdk, Path caseFolder, Path home) {
        long started = System.nanoTime();
        try (CaseContext context = new CaseContext(caseFolder, sdk, home)) {
            matrixCase.script().run(context);
            return null;
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        } finally {
            PhaseTimes.add(PhaseTimes.CASE_SCRIPTS, System.nanoTime() - started);
        }
    }
}
