package lab.continuationreplay.core.wrongway;

import lab.continuationreplay.matrix.run.MatrixRunner;

/**
 * A deliberate wrong-way dependency (lab-core reaching up into the matrix runner), compiled only into lab-cli's tests
 * so that {@code ModuleDirectionTest} can show its rules catch one. Never part of any module's main classes.
 */
final class ReachesIntoTheRunner {
    private ReachesIntoTheRunner() {}

    // a class literal, not a constant: javac would inline a constant and leave no dependency in the bytecode
    static Class<?> runner() {
        return MatrixRunner.class;
    }
}
