package lab.continuationreplay.core.relay;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A relay's process name in its folder: the name asked for, else {@code name~2}, {@code name~3}, ... A client may
 * start the same server command more than once (the TypeScript client's discover probe does), and each start is a
 * process of its own with its own files.
 */
final class ProcessName {
    static final String TRANSCRIPT = ".transcript.log";
    private static final int MOST = 10_000;

    private ProcessName() {}

    /**
     * Claims the first free name by creating its (empty) transcript: creation fails when the file exists, atomically,
     * so relays started at the same moment never share a name.
     */
    static String claim(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        for (int k = 1; k <= MOST; k++) {
            String candidate = k == 1 ? name : name + "~" + k;
            try {
                Files.createFile(dir.resolve(candidate + TRANSCRIPT));
                return candidate;
            } catch (FileAlreadyExistsException taken) {
                // another start of the same command has it; try the next
            }
        }
        throw new IOException(dir + " already holds " + MOST + " transcripts named " + name);
    }
}
