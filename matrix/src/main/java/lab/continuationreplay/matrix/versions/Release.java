package lab.continuationreplay.matrix.versions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.continuationreplay.history.Sdk;

/** One served release of an SDK that {@code lab versions} plays: its lock lives in {@code versions/<sdk>/<version>/}. */
public record Release(Sdk sdk, String version) implements Comparable<Release> {
    private static final Pattern VERSION = Pattern.compile("[0-9]{1,4}(\\.[0-9]{1,4}){2}");

    public Release {
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("'" + version + "' is not a release number such as 2.3.1");
        }
    }

    /** How the run folder and the build folder name it: {@code typescript-2.3.1}. */
    public String label() {
        return sdk.label() + "-" + version;
    }

    /** Where its lock is committed. */
    public Path lockFolder(Path home) {
        return home.resolve("versions").resolve(sdk.label()).resolve(version);
    }

    /** The releases of {@code sdk} with a committed lock, oldest first. */
    public static List<Release> served(Path home, Sdk sdk) throws IOException {
        Path folder = home.resolve("versions").resolve(sdk.label());
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> VERSION.matcher(n).matches())
                    .map(n -> new Release(sdk, n)).sorted().toList();
        }
    }

    @Override
    public int compareTo(Release other) {
        int bySdk = sdk.compareTo(other.sdk);
        if (bySdk != 0) {
            return bySdk;
        }
        return compareVersions(version, other.version);
    }

    /** Orders two release numbers by their parts: 1.10.0 comes after 1.9.0. */
    public static int compareVersions(String one, String other) {
        return Arrays.compare(parts(one), parts(other));
    }

    private static int[] parts(String version) {
        return Arrays.stream(version.split("\\.")).mapToInt(Integer::parseInt).toArray();
    }
}
