package lab.continuationreplay.matrix.cases;

import lab.continuationreplay.matrix.run.CaseContext;

/**
 * One frozen case: its id, name, the seed's expected classification, and the script that drives the servers. A
 * script only acts; what happened is read back from the artifacts it leaves (transcripts, database, exit statuses).
 */
public record MatrixCase(String id, String name, String expected, Script script) {

    @FunctionalInterface
    public interface Script {
        void run(CaseContext context) throws Exception;
    }
}
