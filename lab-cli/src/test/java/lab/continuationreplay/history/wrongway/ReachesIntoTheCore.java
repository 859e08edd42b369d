package lab.continuationreplay.history.wrongway;

import lab.continuationreplay.core.LabHome;

/**
 * A deliberate wrong-way dependency (the evidence format reaching into lab-core), compiled only into lab-cli's tests
 * so that {@code ModuleDirectionTest} can show the history rule catches one. Never part of any module's main classes.
 */
final class ReachesIntoTheCore {
    private ReachesIntoTheCore() {}

    // a class literal, so the dependency stays in the bytecode
    static Class<?> core() {
        return LabHome.class;
    }
}
