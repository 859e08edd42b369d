package lab.continuationreplay.core.servers;

import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.LabHome;

/** The official SDK clients the lab drives, each through its driver program (docs/client-drivers.md). */
public enum ClientKind {
    /** The Java SDK 2.2.0 modern client. */
    JAVA("java", "clients/target/clients.jar"),
    /** {@code @modelcontextprotocol/client} 2.4.0. */
    TYPESCRIPT("typescript", "ts-client/dist/driver.js");

    private final String label;
    private final String artifact;

    ClientKind(String label, String artifact) {
        this.label = label;
        this.artifact = artifact;
    }

    public String label() {
        return label;
    }

    /** The built driver: its jar or script. */
    public Path artifact(Path home) {
        return home.resolve(artifact);
    }

    public static ClientKind fromLabel(String label) {
        for (ClientKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown client '" + label + "' (java or typescript)");
    }

    /** The driver's command line for a script and a records file; fails clearly when the driver is not built. */
    public List<String> command(Path home, Path script, Path records) {
        Path built = LabHome.requireFile(home.resolve(artifact), "build the lab first (mvn -DskipTests install, or ./lab)");
        return switch (this) {
            case JAVA -> JavaCommand.of(List.of(), "-jar", built.toString(), script.toString(), records.toString());
            case TYPESCRIPT -> List.of(LabHome.node(), built.toString(), script.toString(), records.toString());
        };
    }
}
