package lab.continuationreplay.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.probe.cli.ProxyCli;
import picocli.CommandLine.Command;

/** {@code lab proxy}: the probe module's proxy ({@link ProxyCli}), with evidence under the checkout's {@code target/attempts/}. */
@Command(name = "proxy", footer = {
    "",
    "Example, the lab's own Java server behind the proxy, as an MCP client's configuration would start it:",
    "  lab proxy --out /tmp/p -- lab server java"
})
final class ProxyCommand extends ProxyCli {
    @Override
    protected Path folder(Path given) {
        return OutputFolder.of(given, LabHome.resolve(), "proxy");
    }

    @Override
    protected String name() {
        return "lab proxy";
    }

    @Override
    protected PrintStream stdout() {
        return Streams.stdout();
    }

    @Override
    protected PrintStream stderr() {
        return Streams.stderr();
    }
}
