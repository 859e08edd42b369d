package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.ExactJson;

/** Where an attempt came from: runtimes, SDK versions and hashes of the code that ran. Never environment values. */
public final class Provenance {
    private Provenance() {}

    public static ObjectNode of(ServerKind sdk, Path home) throws IOException {
        ObjectNode p = Format.PROVENANCE.document();
        p.put("sdk", sdk.label());
        p.put("protocol_version", "2026-07-28");
        p.put("java_version", System.getProperty("java.version"));
        p.put("java_vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        p.put("node_version", nodeVersion());
        p.put("java_sdk", jarVersion(home.resolve("java-server/target/lib"), "mcp-core-"));
        p.put("typescript_sdk", packageVersion(home.resolve("ts-fixture/node_modules/@modelcontextprotocol/server/package.json")));
        String python = pythonDistribution(home.resolve("py-fixture/.venv"), "mcp");
        p.put("python_sdk", python.isEmpty() ? "unavailable" : python);
        p.put("go_sdk", goRequirement(home.resolve("go-fixture/go.mod"), "github.com/modelcontextprotocol/go-sdk"));
        String rust = cargoLocked(home.resolve("rust-fixture/Cargo.lock"), "rmcp");
        p.put("rust_sdk", rust.isEmpty() ? "unavailable" : rust);
        ObjectNode hashes = p.putObject("source_hashes");
        for (String artifact : List.of("java-server/target/java-server.jar", "bridge/target/bridge.jar",
                LabHome.LAB_JAR, "ts-fixture/dist/server.js", "ts-fixture/package-lock.json")) {
            Path file = home.resolve(artifact);
            hashes.put(artifact, Files.exists(file) ? ArtifactHashes.sha256(file) : "missing");
        }
        p.set("environment_allowlist_names", ExactJson.mapper().valueToTree(List.of("PATH", "LANG", "LC_ALL", "TMPDIR",
                "HOME", "JAVA_HOME", "WIRE_*")));
        p.put("environment_values_recorded", false);
        return p;
    }

    static String nodeVersion() {
        try {
            Process node = Exec.command(LabHome.node(), "--version").withStdout(Exec.Io.PIPE).withStderr(Exec.Io.INTO_STDOUT).start();
            String version = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return node.waitFor(10, TimeUnit.SECONDS) && node.exitValue() == 0 ? version : "unavailable";
        } catch (IOException e) {
            return "unavailable";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unavailable";
        }
    }

    /** The version in the name of the first jar in {@code lib} named {@code <prefix><version>.jar}, or {@code unavailable}. */
    public static String jarVersion(Path lib, String prefix) throws IOException {
        if (!Files.isDirectory(lib)) {
            return "unavailable";
        }
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix) && n.endsWith(".jar"))
                    .map(n -> n.substring(prefix.length(), n.length() - 4)).findFirst().orElse("unavailable");
        }
    }

    /** The version in an npm package's {@code package.json}, or {@code unavailable}. */
    public static String packageVersion(Path packageJson) throws IOException {
        return Files.exists(packageJson) ? ExactJson.parse(Files.readString(packageJson)).path("version").asText("unavailable")
                : "unavailable";
    }

    /**
     * The version of distribution {@code name} installed in virtual environment {@code venv}, read from its
     * {@code <name>-<version>.dist-info} folder (what pip installed, not what a lock asked for); empty when absent.
     */
    public static String pythonDistribution(Path venv, String name) throws IOException {
        Path lib = venv.resolve("lib");
        if (!Files.isDirectory(lib)) {
            return "";
        }
        String prefix = name + "-";
        try (Stream<Path> found = Files.find(lib, 3, (path, attributes) -> attributes.isDirectory()
                && path.getParent().getFileName().toString().equals("site-packages")
                && path.getFileName().toString().startsWith(prefix) && path.getFileName().toString().endsWith(".dist-info"))) {
            return found.map(p -> p.getFileName().toString()).map(n -> n.substring(prefix.length(), n.length() - ".dist-info".length()))
                    .filter(v -> !v.contains("-")).findFirst().orElse("");
        }
    }

    /** The version {@code go.mod} requires of {@code module} (go.sum pins what it resolves to), or {@code unavailable}. */
    static String goRequirement(Path goMod, String module) throws IOException {
        if (!Files.isRegularFile(goMod)) {
            return "unavailable";
        }
        return Files.readAllLines(goMod).stream().map(String::strip)
                .map(l -> l.startsWith("require ") ? l.substring("require ".length()).strip() : l)
                .filter(l -> l.startsWith(module + " v")).map(l -> l.substring(module.length() + 2).split("\\s")[0])
                .findFirst().orElse("unavailable");
    }

    /**
     * The version of crate {@code name} in {@code Cargo.lock}, which {@code cargo build --locked} holds a build to;
     * empty when the lock or the crate is absent.
     */
    public static String cargoLocked(Path lock, String name) throws IOException {
        if (!Files.isRegularFile(lock)) {
            return "";
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("name = \"" + java.util.regex.Pattern.quote(name)
                + "\"\\s*\\nversion = \"([^\"]+)\"").matcher(Files.readString(lock));
        return m.find() ? m.group(1) : "";
    }
}
