package lab.continuationreplay.cli.containers;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import lab.continuationreplay.containers.RunnerImages;
import lab.continuationreplay.containers.RuntimeCell;
import lab.continuationreplay.core.LabHome;

/**
 * The runner images for the container tests: {@code containers/build-images.sh} runs once per test JVM, for all four
 * cells (cached by content hash, so seconds when nothing changed).
 */
final class TestImages {
    private static RunnerImages.Built built;

    private TestImages() {}

    static synchronized RunnerImages.Built all() {
        if (built == null) {
            try {
                built = RunnerImages.build(LabHome.resolve(), RuntimeCell.ALL, line -> System.err.println("  " + line));
            } catch (Exception e) {
                throw new IllegalStateException("building the runner images failed: " + e.getMessage(), e);
            }
        }
        return built;
    }

    static String image(RuntimeCell cell) {
        return all().images().get(cell);
    }

    /** A cell's image name, resolved when Testcontainers first asks for it (so declaring a container builds nothing). */
    static Future<String> lazily(RuntimeCell cell) {
        return new Future<>() {
            private volatile String name;

            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                return false;
            }

            @Override
            public boolean isCancelled() {
                return false;
            }

            @Override
            public boolean isDone() {
                return name != null;
            }

            @Override
            public String get() {
                if (name == null) {
                    name = image(cell);
                }
                return name;
            }

            @Override
            public String get(long timeout, TimeUnit unit) throws ExecutionException {
                return get();
            }
        };
    }
}
