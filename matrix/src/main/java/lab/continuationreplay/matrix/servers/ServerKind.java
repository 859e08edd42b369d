package lab.continuationreplay.matrix.servers;

import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.matrix.LabHome;

/** The servers the lab runs, each as the command that starts it on stdio from a built repository. */
public enum ServerKind {
    /** The guarded server on the Java SDK 2.2.0 modern stack. */
    JAVA("java", "java-server/target/java-server.jar"),
    /** The Java control without a ledger ({@code create_issue}). */
    UNGUARDED("unguarded", "java-server/target/java-server.jar"),
    /** The guarded fixture on the TypeScript SDK v2, reaching the ledger through the bridge. */
    TYPESCRIPT("typescript", "ts-fixture/dist/server.js");

    private final String label;
    private final String artifact;

    ServerKind(String label, String artifact) {
        this.label = label;
        this.artifact = artifact;
    }

    public String label() {
        return label;
    }

    public Path artifact(Path home) {
        return home.resolve(artifact);
    }

    public static ServerKind fromLabel(String label) {
        for (ServerKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown server '" + label + "' (java, unguarded or typescript)");
    }

    /** The command line; fails with a clear message when the artifact has not been built. */
    public List<String> command(Path home) {
        Path built = LabHome.requireFile(artifact(home), "build the lab first (mvn -DskipTests install, or ./lab)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return switch (this) {
            case JAVA -> List.of(java, "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-jar", built.toString());
            case UNGUARDED -> List.of(java, "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", built.toString(),
                    "lab.continuationreplay.server.UnguardedServerMain");
            case TYPESCRIPT -> List.of(LabHome.node(), built.toString());
        };
    }
}
