package lab.continuationreplay.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.FingerprintLines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "fingerprint",
        mixinStandardHelpOptions = true,
        description = {
            "Reads JSON Lines on stdin (a LogicalRequest, or {\"name\":…,\"request\":…}) and prints one digest per line"
                    + " (name<TAB>digest for named lines).",
            "Key: hex in " + FingerprintLines.KEY_VARIABLE + " (at least 32 bytes). Exit 2 on a bad key or line."
        })
final class FingerprintCommand implements Callable<Integer> {
    @Option(names = "--keep-going", description = "Print !<reason> for a bad line and go on, instead of stopping.")
    boolean keepGoing;

    @Override
    public Integer call() throws IOException {
        FingerprintKey key;
        try {
            key = FingerprintKey.fromHex(System.getenv(FingerprintLines.KEY_VARIABLE), FingerprintLines.KEY_VARIABLE);
        } catch (IllegalArgumentException e) {
            Streams.stderr().println(e.getMessage());
            return FingerprintLines.EXIT_BAD_INPUT;
        }
        return new FingerprintLines(key).run(System.in, Streams.stdout(), Streams.stderr(), keepGoing);
    }
}
