package lab.continuationreplay.store.postgres;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How {@link EmbeddedPostgres} starts its programs (initdb, postgres, pg_ctl, id, useradd): the lab starts every
 * child in one place (lab-core's {@code Exec}), so the launcher is handed that place rather than making its own.
 */
@FunctionalInterface
public interface ProcessStarter {
    /**
     * Starts {@code command} with exactly {@code environment}, no input (stdin closed or empty), and stdout and stderr
     * both appended to {@code output}.
     */
    Process start(List<String> command, Map<String, String> environment, Path output) throws IOException;
}
