package lab.continuationreplay.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code lab} command line; {@code ./lab} at the repository root launches it. */
@Command(
        name = "lab",
        mixinStandardHelpOptions = true,
        version = "Continuation Replay Lab 0.1.0",
        description = "Lost-reply recovery for MCP multi-round tool calls, compared across the official Java, TypeScript, Python, Go and Rust SDKs.",
        subcommands = {MatrixCommand.class, ClientsCommand.class, VerifyCommand.class, DemoCommand.class, VectorsCommand.class, FingerprintCommand.class,
            BenchCommand.class, FaultsCommand.class, ConformanceCommand.class, ReplicasCommand.class,
            ProbeCommand.class, ProxyCommand.class, ServerCommand.class, VersionsCommand.class, PictureCommand.class, CommandLine.HelpCommand.class})
public final class Lab implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command, e.g. `lab vectors`");
    }

    public static void main(String[] args) {
        if (System.getProperty("lab.home") != null) {
            // The lab reads the ledgers its runs leave: the same unpacked library as its servers, not a copy per run.
            lab.continuationreplay.core.servers.NativeSqlite.useIn(java.nio.file.Path.of(System.getProperty("lab.home")));
        }
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Lab());
        commandLine.setOut(new java.io.PrintWriter(Streams.stdout(), true));
        commandLine.setErr(new java.io.PrintWriter(Streams.stderr(), true));
        // A failure the lab can explain is one line on stderr, not a stack trace.
        commandLine.setExecutionExceptionHandler((exception, cmd, parseResult) -> {
            cmd.getErr().println("lab " + cmd.getCommandName() + ": " + exception.getMessage());
            return 1;
        });
        return commandLine;
    }
}
