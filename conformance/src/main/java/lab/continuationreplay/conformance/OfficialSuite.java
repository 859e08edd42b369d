package lab.continuationreplay.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.LabHome;

/**
 * The official MCP conformance suite as {@code conformance/package.json} pins it, run on the Node 22 that the same
 * package brings (the suite crashes on Node 20, the machines' own Node).
 */
public final class OfficialSuite {
    /** The pinned version; the lock file holds it too, and a test keeps the two in step. */
    public static final String VERSION = "0.2.0-alpha.12";
    /** The spec revision whose frozen requirements the lab runs. */
    public static final String REQUIREMENTS = "2026-07-28";

    private static final String BUILD_IT = "build the lab first (./lab builds it; or npm ci in conformance/)";

    private final Path home;

    public OfficialSuite(Path home) {
        this.home = home;
    }

    /** The Node 22 binary from the npm package {@code node}, never the machine's. */
    public Path node() {
        return LabHome.requireFile(home.resolve("conformance/node_modules/node/bin/node"), BUILD_IT);
    }

    public Path entry() {
        return LabHome.requireFile(home.resolve("conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"), BUILD_IT);
    }

    /** {@code conformance ARGS...} as a command line. */
    public List<String> command(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(node().toString(), entry().toString()));
        command.addAll(arguments);
        return command;
    }
}
