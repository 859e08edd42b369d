package lab.continuationreplay.matrix.bench;

import java.nio.file.Path;
import java.util.List;

/** The command line of a child JVM running a class of the lab's own class path (lab.jar and its lib/). */
final class ChildJvm {
    private ChildJvm() {}

    static List<String> command(Class<?> main) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-Xshare:auto", "-cp", System.getProperty("java.class.path"), main.getName());
    }
}
