package lab.continuationreplay.matrix.run;

import java.io.IOException;
import java.nio.file.Path;
import lab.continuationreplay.cases.CaseSteps;

/**
 * Where a case's processes run: local child processes ({@link CaseContext}), or replicas in containers
 * ({@code lab replicas}). The runner plays a script on the steps a stage opens for the case's folder, closes them
 * (which writes {@code processes.json}), and seals the ledger; the stage never decides anything about the verdict.
 */
@FunctionalInterface
public interface CaseStage {
    /** The steps a script of the case in {@code caseFolder} plays on, its processes yet to be started. */
    Opened open(Path caseFolder) throws IOException;

    /** A case's steps, closed once its script has ended (every process ended, {@code processes.json} written). */
    interface Opened extends CaseSteps, AutoCloseable {
        @Override
        void close() throws IOException;
    }
}
