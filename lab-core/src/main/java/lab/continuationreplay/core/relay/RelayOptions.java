package lab.continuationreplay.core.relay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * What a {@link RecordingRelay} is told besides its server command: the folder of its files, the process name they
 * start with, and the continuation whose reply it keeps from the client (none when empty).
 */
public record RelayOptions(Path dir, String name, OptionalInt dropReplyToContinuation) {
    /**
     * A name is the start of a file name and nothing else: no separator, no dot first, no {@code ~} (the relay adds
     * {@code ~2}, {@code ~3} itself when the name is taken).
     */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    public RelayOptions {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dropReplyToContinuation, "dropReplyToContinuation");
        if (dir.toString().isBlank()) {
            throw new IllegalArgumentException("--dir must name a folder");
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("--name '" + name + "' must be 1 to 100 letters, digits, '.', '_' or '-',"
                    + " starting with a letter or digit");
        }
        if (dropReplyToContinuation.isPresent() && dropReplyToContinuation.getAsInt() < 1) {
            throw new IllegalArgumentException("--drop-reply-to-continuation counts from 1, not "
                    + dropReplyToContinuation.getAsInt());
        }
    }

    /** Records only: every reply reaches the client. */
    public static RelayOptions recording(Path dir, String name) {
        return new RelayOptions(dir, name, OptionalInt.empty());
    }

    /** The same, keeping the reply to the {@code n}th continuation (1 = the first) from the client. */
    public RelayOptions droppingReplyToContinuation(int n) {
        return new RelayOptions(dir, name, OptionalInt.of(n));
    }

    /** The relay's options on its command line, before {@code --}. */
    List<String> arguments() {
        List<String> arguments = new ArrayList<>(List.of("--dir", dir.toString(), "--name", name));
        dropReplyToContinuation.ifPresent(n -> arguments.addAll(List.of("--drop-reply-to-continuation", Integer.toString(n))));
        return arguments;
    }
}
