package lab.continuationreplay.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Where the headless browser is: {@code $LAB_CHROMIUM}, else the first Chromium on the PATH. */
final class Chromium {
    static final String VARIABLE = "LAB_CHROMIUM";
    static final String HOW = "install Debian's chromium (apt-get install --no-install-recommends chromium) or set "
            + VARIABLE + "; ./lab doctor checks it";
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");

    private Chromium() {}

    /**
     * The browser, or empty when there is none.
     *
     * @throws IllegalArgumentException when {@code $LAB_CHROMIUM} names something that is not an executable file
     */
    static Optional<Path> find(Function<String, String> env) {
        String given = env.apply(VARIABLE);
        if (given != null && !given.isBlank()) {
            Path path = Path.of(given);
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new IllegalArgumentException(VARIABLE + "=" + given + " is not an executable file");
            }
            return Optional.of(path);
        }
        String searched = env.apply("PATH");
        for (String name : NAMES) {
            for (String dir : (searched == null ? "/usr/bin:/bin" : searched).split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
