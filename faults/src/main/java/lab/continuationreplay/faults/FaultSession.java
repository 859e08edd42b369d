package lab.continuationreplay.faults;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import lab.continuationreplay.core.servers.ServerKind;

/**
 * What every experiment of one {@code lab faults} run shares: the built repository, the output folder, the size
 * (quick or full), the seed that makes random choices reproducible, and the SDKs under test.
 */
public record FaultSession(Path home, Path out, boolean quick, long seed, List<ServerKind> sdks, PrintStream progress) {
    public FaultSession {
        sdks = List.copyOf(sdks);
    }

    /** A fresh folder for one experiment's evidence (transcripts, databases), e.g. {@code OUT/kill-soak/java}. */
    public Path folder(String... parts) throws IOException {
        Path folder = out;
        for (String part : parts) {
            folder = folder.resolve(part);
        }
        return Files.createDirectories(folder);
    }

    /** A random source for one experiment, derived from the run's seed and the experiment's name. */
    public Random random(String experiment) {
        return new Random(seed ^ (experiment.hashCode() * 0x9E3779B97F4A7C15L));
    }

    /** {@code full} in a full run, {@code quick} in a quick one. */
    public int size(int quickSize, int fullSize) {
        return quick ? quickSize : fullSize;
    }

    public void log(String line) {
        progress.println("faults: " + line);
        progress.flush();
    }
}
