package lab.continuationreplay.core.servers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.history.Sdk;

/** The servers the lab runs, each as the command that starts it on stdio from a built repository. */
public enum ServerKind {
    /** The guarded server on the Java SDK 2.2.0 modern stack. */
    JAVA(Sdk.JAVA, "java", "target/java-server.jar"),
    /** The Java control without a ledger ({@code create_issue}). */
    UNGUARDED(null, "unguarded", Sdk.JAVA.serverFolder() + "/target/java-server.jar"),
    /** The guarded fixture on the TypeScript SDK v2, reaching the ledger through the bridge. */
    TYPESCRIPT(Sdk.TYPESCRIPT, "typescript", "dist/server.js"),
    /** The guarded fixture on the Python SDK mcp 2.3.0, run by the module's virtual environment, through the same bridge. */
    PYTHON(Sdk.PYTHON, "python", "src/server.py"),
    /** The guarded fixture on the Go SDK v1.8.0 (go build), reaching the ledger through the same bridge. */
    GO(Sdk.GO, "go", "target/bin/go-fixture"),
    /** The guarded fixture on the Rust SDK rmcp 3.11.0 (cargo build --release), reaching the ledger through the same bridge. */
    RUST(Sdk.RUST, "rust", "target/release/rust-fixture");

    /**
     * The guarded servers under test, in the order of the matrix's columns: what {@code --sdk all} means, and the
     * servers whose every ordered pair is a cross-SDK cell. The unguarded control is no SDK under test.
     */
    public static final List<ServerKind> SDKS = java.util.Arrays.stream(Sdk.values()).map(ServerKind::of).toList();

    /** JVM options of a case's Java server ({@link JvmLifetime#SHORT}). */
    public static final List<String> SERVER_JVM_OPTIONS = JvmLifetime.SHORT.options();

    private final Sdk sdk;
    private final String label;
    private final String artifact;

    /** @param artifact within the SDK's server folder; the control's, from the repository */
    ServerKind(Sdk sdk, String label, String artifact) {
        this.sdk = sdk;
        this.label = label;
        this.artifact = sdk == null ? artifact : sdk.serverFolder() + "/" + artifact;
    }

    /** The SDK column this server is (null for the unguarded control, which is none). */
    public Sdk sdk() {
        return sdk;
    }

    /** The guarded server of {@code sdk}. */
    public static ServerKind of(Sdk sdk) {
        for (ServerKind kind : values()) {
            if (kind.sdk == sdk) {
                return kind;
            }
        }
        throw new IllegalStateException("no server for " + sdk);
    }

    public String label() {
        return label;
    }

    public Path artifact(Path home) {
        return home.resolve(artifact);
    }

    /** The fixtures on other SDKs, which reach the ledger through the Java bridge (their child process). */
    public boolean reachesLedgerThroughBridge() {
        return sdk != null && sdk != Sdk.JAVA;
    }

    /** The labels of {@link #SDKS}, in column order. */
    public static List<String> sdkLabels() {
        return SDKS.stream().map(ServerKind::label).toList();
    }

    /** An SDK under test by its label; the unguarded control and unknown labels are refused by name. */
    public static ServerKind sdk(String label) {
        ServerKind kind = fromLabel(label);
        if (!SDKS.contains(kind)) {
            throw new IllegalArgumentException("'" + label + "' is not an SDK under test (" + String.join(", ", sdkLabels()) + ")");
        }
        return kind;
    }

    /** The SDKs under test that {@code labels} name, each once, in their order; the unguarded control is not one. */
    public static List<ServerKind> underTest(List<String> labels) {
        List<ServerKind> kinds = new java.util.ArrayList<>();
        for (String label : labels) {
            ServerKind kind = fromLabel(label);
            if (kind == UNGUARDED) {
                throw new IllegalArgumentException("the unguarded control is not an SDK under test");
            }
            if (kinds.contains(kind)) {
                throw new IllegalArgumentException("--sdk names " + label + " twice");
            }
            kinds.add(kind);
        }
        return List.copyOf(kinds);
    }

    public static ServerKind fromLabel(String label) {
        for (ServerKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown server '" + label + "' (" + String.join(", ", sdkLabels()) + " or unguarded)");
    }

    /** The command line of a case's server; fails with a clear message when the artifact has not been built. */
    public List<String> command(Path home) {
        return command(home, JvmLifetime.SHORT);
    }

    /** The command line of a server that lives {@code lifetime}. */
    public List<String> command(Path home, JvmLifetime lifetime) {
        Path built = LabHome.requireFile(artifact(home), "build the lab first (mvn -DskipTests install, or ./lab)");
        return switch (this) {
            case JAVA -> JavaCommand.of(jvmOptions(home, built, lifetime, false), "-jar", built.toString());
            case UNGUARDED -> JavaCommand.of(jvmOptions(home, built, lifetime, false), "-cp", built.toString(),
                    "lab.continuationreplay.server.UnguardedServerMain");
            case TYPESCRIPT -> List.of(LabHome.node(), built.toString());
            case PYTHON -> List.of(LabHome.requireFile(home.resolve("py-fixture/.venv/bin/python"),
                    "build the lab first (the py-fixture module creates its virtual environment)").toString(), built.toString());
            case GO, RUST -> List.of(built.toString());
        };
    }

    /**
     * The command line of this SDK's unguarded control, the baseline {@code lab bench} sets its guarded server beside:
     * the same SDK and tool shape without the guard's apply-once. The Java server's is its own main class
     * ({@link #UNGUARDED}); a fixture's is the fixture itself with {@code --unguarded}, through the same bridge.
     */
    public List<String> controlCommand(Path home, JvmLifetime lifetime) {
        if (sdk == null) {
            throw new IllegalStateException("the unguarded control has no control of its own");
        }
        if (this == JAVA) {
            return UNGUARDED.command(home, lifetime);
        }
        List<String> command = new ArrayList<>(command(home, lifetime));
        command.add("--unguarded");
        return List.copyOf(command);
    }

    /** The options of a JVM the lab starts for a server or a bridge: its lifetime's, sqlite's library, its archive. */
    private static List<String> jvmOptions(Path home, Path jar, JvmLifetime lifetime, boolean bridge) {
        List<String> options = new ArrayList<>(lifetime.options());
        options.addAll(NativeSqlite.options(home));
        options.addAll(ClassDataArchive.options(home, jar, bridge));
        return options;
    }

    /**
     * What a server needs in its environment besides the {@code WIRE_*} settings: for the TypeScript fixture, the
     * bridge command ({@code LAB_BRIDGE_COMMAND}): the lab's JDK, the stdout options, the options of a case's JVM
     * ({@link JvmLifetime}), sqlite's unpacked library and the bridge's class-data archive when there is one; for the
     * Java servers nothing.
     */
    public Map<String, String> environment(Path home) {
        return environment(home, JvmLifetime.SHORT);
    }

    /** As above, for a fixture whose bridge lives {@code lifetime}. */
    public Map<String, String> environment(Path home, JvmLifetime lifetime) {
        if (!reachesLedgerThroughBridge()) {
            return Map.of();
        }
        Path bridge = home.resolve("bridge/target/bridge.jar");
        if (!Files.isRegularFile(bridge)) {
            return Map.of();
        }
        ArrayNode argv = JsonNodeFactory.instance.arrayNode();
        JavaCommand.of(jvmOptions(home, bridge, lifetime, true), "-jar", bridge.toString()).forEach(argv::add);
        return Map.of("LAB_BRIDGE_COMMAND", argv.toString());
    }
}
