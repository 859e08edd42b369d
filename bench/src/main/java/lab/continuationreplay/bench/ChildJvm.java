package lab.continuationreplay.bench;

import java.util.List;
import lab.continuationreplay.core.servers.JavaCommand;

/** The command line of a child JVM running a class of the lab's own class path (lab.jar and its lib/). */
final class ChildJvm {
    private ChildJvm() {}

    static List<String> command(Class<?> main) {
        return JavaCommand.onClassPath(System.getProperty("java.class.path"), List.of("-XX:TieredStopAtLevel=1"), main);
    }
}
