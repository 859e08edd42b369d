package lab.continuationreplay.probe.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The probe's own jar ({@code java -jar lab-probe.jar probe ...}): lab probe, lab proxy and lab verify of their runs, for a machine
 * with only a JDK and no checkout of the lab. Stdout carries the verdicts; a failure it can explain is one line on
 * stderr and exit 2.
 */
@Command(name = "lab-probe.jar", mixinStandardHelpOptions = true, version = "Continuation Replay Lab probe 0.1.0",
        description = "Checks any MCP server for the lost-reply question: does a retry after a lost reply commit twice?",
        subcommands = {ProbeCli.class, ProxyCli.class, ProbeMain.Verify.class, CommandLine.HelpCommand.class})
public final class ProbeMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: probe, proxy, verify or help");
    }

    public static void main(String[] args) {
        CommandLine commandLine = new CommandLine(new ProbeMain());
        commandLine.setExecutionExceptionHandler((exception, cmd, parseResult) -> {
            cmd.getErr().println(cmd.getCommandName() + ": " + exception.getMessage());
            return 2;
        });
        System.exit(commandLine.execute(args));
    }

    /** {@code verify DIR}: a probe run's verdicts derived again from its history alone. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Derives a probe or proxy run again from its history alone; exit 0 if no check failed and"
                    + " probe.json or proxy.json agrees, 1 otherwise.")
    static final class Verify implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "A folder written by probe or proxy --out DIR.")
        Path folder;

        @Override
        public Integer call() throws Exception {
            if (!ProbeVerify.handles(folder)) {
                throw new IllegalArgumentException(folder + (Files.isDirectory(folder) ? " holds no probe or proxy run" : " is not a folder"));
            }
            ProbeVerify.Report verified = ProbeVerify.of(folder);
            System.out.println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(verified.json()));
            return verified.ok() ? 0 : 1;
        }
    }
}
