package lab.continuationreplay.core.wrongway;

import java.io.IOException;

/**
 * A deliberate process started past {@code core.exec} (a {@link ProcessBuilder} of its own), compiled only into
 * lab-cli's tests so that {@code ModuleDirectionTest} can show its rule catches one. Never called, never part of any
 * module's main classes.
 */
final class StartsItsOwnProcess {
    private StartsItsOwnProcess() {}

    static Process start() throws IOException {
        return new ProcessBuilder("true").start();
    }
}
