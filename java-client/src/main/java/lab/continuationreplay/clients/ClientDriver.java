package lab.continuationreplay.clients;

import io.modelcontextprotocol.modern.client.McpClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Java SDK client driver: {@code java -jar java-client.jar SCRIPT RECORDS} plays a step script through the SDK's
 * modern client and writes one client record per step (docs/client-drivers.md). It never judges what it sees.
 *
 * <p>Exit status: 0 when every step was attempted, 2 for a script it will not run (nothing started), 1 for a defect
 * of the driver itself. stdout is unused; everything else goes to stderr.
 */
public final class ClientDriver {
    public static final int OK = 0;
    public static final int DEFECT = 1;
    public static final int BAD_SCRIPT = 2;

    private ClientDriver() {}

    public static void main(String[] args) {
        // Exit explicitly: the SDK's reader threads of a server that would not die must not keep the driver alive.
        System.exit(run(args, System.nanoTime()));
    }

    static int run(String[] args, long startNanos) {
        if (args.length != 2) {
            System.err.println("usage: java -jar java-client.jar SCRIPT RECORDS");
            return BAD_SCRIPT;
        }
        StepScript script;
        try {
            script = StepScript.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        } catch (ScriptException e) {
            System.err.println(e.getMessage());
            return BAD_SCRIPT;
        } catch (IOException e) {
            System.err.println(ScriptException.PREFIX + "cannot read " + args[0] + " (" + e + ")");
            return BAD_SCRIPT;
        }
        StepRunner runner = null;
        try (RecordWriter records = new RecordWriter(Path.of(args[1]), sdkVersion())) {
            runner = new StepRunner(script, records, startNanos);
            runner.run();
            return OK;
        } catch (IOException | RuntimeException | Error e) {
            System.err.println("clients: driver defect: " + e);
            e.printStackTrace();
            return DEFECT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("clients: interrupted");
            return DEFECT;
        } finally {
            if (runner != null) {
                runner.closeAll();
            }
        }
    }

    /** The SDK version from its jar's manifest, so a record can never claim a version that did not run. */
    static String sdkVersion() {
        Package sdk = McpClient.class.getPackage();
        String version = sdk == null ? null : sdk.getImplementationVersion();
        return version == null ? "unknown" : version;
    }
}
