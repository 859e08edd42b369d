package lab.continuationreplay.core;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root the lab runs from: {@code -Dlab.home}, else {@code LAB_HOME}, else the working directory. */
public final class LabHome {
    private LabHome() {}

    public static Path resolve() {
        String property = System.getProperty("lab.home");
        String environment = System.getenv("LAB_HOME");
        String chosen = property != null && !property.isBlank() ? property
                : environment != null && !environment.isBlank() ? environment : ".";
        return Path.of(chosen).toAbsolutePath().normalize();
    }

    /** The lab CLI's jar (its manifest names lib/ beside it, where every module's jar is). */
    public static final String LAB_JAR = "lab-cli/target/lab.jar";

    public static Path labJar(Path home) {
        return home.resolve(LAB_JAR);
    }

    public static Path typeScriptFingerprintCli(Path home) {
        return home.resolve("ts-fixture/dist/fingerprint-cli.js");
    }

    /** The Node.js binary: {@code LAB_NODE} when set (the container runtime axis uses it), else {@code node} on PATH. */
    public static String node() {
        String configured = System.getenv("LAB_NODE");
        return configured != null && !configured.isBlank() ? configured : "node";
    }

    public static Path requireFile(Path file, String whatBuildsIt) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing; " + whatBuildsIt);
        }
        return file;
    }
}
