package lab.continuationreplay.core.servers;

import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.history.Sdk;

/** The official SDK clients the lab drives, each through its driver program (docs/client-drivers.md). */
public enum ClientKind {
    /** The Java SDK 2.2.0 modern client. */
    JAVA(Sdk.JAVA, "target/java-client.jar"),
    /** {@code @modelcontextprotocol/client} 2.4.0. */
    TYPESCRIPT(Sdk.TYPESCRIPT, "dist/driver.js"),
    /** The Python SDK {@code mcp} 2.3.0's {@code Client}, run by the py-fixture's virtual environment (the same lock). */
    PYTHON(Sdk.PYTHON, "src/driver.py"),
    /** The Go SDK v1.8.0's {@code Client} (go build). */
    GO(Sdk.GO, "target/bin/go-client"),
    /** The Rust SDK rmcp 3.11.0 client (cargo build --release). */
    RUST(Sdk.RUST, "target/release/rust-client");

    /** Every client, in the order of the client axis: what {@code --client all} means. */
    public static final List<ClientKind> ALL = List.of(values());

    private final Sdk sdk;
    private final String label;
    private final String artifact;

    /** @param artifact the built driver, within the SDK's client folder */
    ClientKind(Sdk sdk, String artifact) {
        this.sdk = sdk;
        this.label = sdk.label();
        this.artifact = sdk.clientFolder() + "/" + artifact;
    }

    public Sdk sdk() {
        return sdk;
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
        throw new IllegalArgumentException("unknown client '" + label + "' (" + Sdk.listed() + ")");
    }

    /** The driver's command line for a script and a records file; fails clearly when the driver is not built. */
    public List<String> command(Path home, Path script, Path records) {
        Path built = LabHome.requireFile(home.resolve(artifact), "build the lab first (mvn -DskipTests install, or ./lab)");
        return switch (this) {
            // a driver plays one short script, then exits: the same JVM options as a case's server
            case JAVA -> JavaCommand.of(JvmLifetime.SHORT.options(), "-jar", built.toString(), script.toString(), records.toString());
            case TYPESCRIPT -> List.of(LabHome.node(), built.toString(), script.toString(), records.toString());
            case PYTHON -> List.of(LabHome.requireFile(home.resolve("py-fixture/.venv/bin/python"),
                    "build the lab first (the py-fixture module creates its virtual environment)").toString(), built.toString(),
                    script.toString(), records.toString());
            case GO, RUST -> List.of(built.toString(), script.toString(), records.toString());
        };
    }
}
