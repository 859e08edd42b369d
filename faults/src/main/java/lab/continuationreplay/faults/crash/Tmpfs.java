package lab.continuationreplay.faults.crash;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lab.continuationreplay.core.exec.Exec;

/**
 * A size-limited tmpfs the experiment mounts itself, to make the disk full or read-only under a running server.
 * Mounting needs root (or CAP_SYS_ADMIN); where the machine refuses, {@link #mount} says why and nothing is mounted.
 */
final class Tmpfs implements AutoCloseable {
    private final Path mountPoint;

    private Tmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code kib} KiB at {@code mountPoint}; throws {@link Unavailable} where the machine refuses. */
    static Tmpfs mount(Path mountPoint, int kib) throws IOException, InterruptedException, Unavailable {
        Files.createDirectories(mountPoint);
        String failure = run("mount", "-t", "tmpfs", "-o", "size=" + kib + "k,mode=0755", "tmpfs", mountPoint.toString());
        if (failure != null) {
            throw new Unavailable("cannot mount a tmpfs here: " + failure);
        }
        return new Tmpfs(mountPoint);
    }

    Path path() {
        return mountPoint;
    }

    void readOnly(boolean readOnly) throws IOException, InterruptedException {
        String failure = run("mount", "-o", "remount," + (readOnly ? "ro" : "rw"), mountPoint.toString());
        if (failure != null) {
            throw new IOException("remount " + (readOnly ? "ro" : "rw") + " failed: " + failure);
        }
    }

    /** Writes a filler file until the file system is full; returns its size. */
    long fill(Path filler) throws IOException {
        long written = 0;
        byte[] block = new byte[4096];
        try (var out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
                out.flush();
                written += block.length;
            }
        } catch (IOException full) {
            // ENOSPC: the point of the exercise
        }
        return written;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        String failure = run("umount", mountPoint.toString());
        if (failure != null) {
            run("umount", "-l", mountPoint.toString());
        }
    }

    /** Runs a command; null when it succeeded, else its output and status. */
    private static String run(String... command) throws IOException, InterruptedException {
        Exec.Result result = Exec.run(List.of(command), Duration.ofSeconds(20));
        if (result.timedOut()) {
            return String.join(" ", command) + " did not finish";
        }
        String output = result.output().trim();
        return result.exitStatus() == 0 ? null : "exit " + result.exitStatus() + (output.isEmpty() ? "" : ": " + output);
    }

    /** The machine does not let this process mount a file system. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }
}
