package lab.continuationreplay.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** UTF-8 standard streams whatever the locale (Java 17 would otherwise encode with the platform charset). */
final class Streams {
    private static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    private static final PrintStream ERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

    private Streams() {}

    static PrintStream stdout() {
        return OUT;
    }

    static PrintStream stderr() {
        return ERR;
    }
}
