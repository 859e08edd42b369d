package lab.continuationreplay.faults.secrets;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Looks for byte patterns in every regular file under some folders, streaming each file in blocks that overlap by
 * the longest pattern, so large transcripts are never loaded whole.
 */
final class SecretScanner {
    private static final int BLOCK = 1 << 20;

    record Hit(Path file, String pattern) {}

    record Result(long files, long bytes, List<Hit> hits) {}

    private final Map<String, byte[]> patterns;
    private final int longest;

    SecretScanner(Map<String, byte[]> patterns) {
        this.patterns = Map.copyOf(patterns);
        this.longest = patterns.values().stream().mapToInt(p -> p.length).max().orElse(1);
    }

    Result scan(List<Path> roots) throws IOException {
        long files = 0;
        long bytes = 0;
        List<Hit> hits = new ArrayList<>();
        for (Path root : roots) {
            List<Path> all;
            try (Stream<Path> walk = Files.walk(root)) {
                all = walk.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path file : all) {
                files++;
                bytes += scanFile(file, hits);
            }
        }
        return new Result(files, bytes, hits);
    }

    private long scanFile(Path file, List<Hit> hits) throws IOException {
        byte[] buffer = new byte[BLOCK + longest];
        int carried = 0;
        long total = 0;
        List<String> found = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            int read;
            while ((read = in.readNBytes(buffer, carried, BLOCK)) > 0) {
                int filled = carried + read;
                total += read;
                for (Map.Entry<String, byte[]> pattern : patterns.entrySet()) {
                    if (!found.contains(pattern.getKey()) && contains(buffer, filled, pattern.getValue())) {
                        found.add(pattern.getKey());
                        hits.add(new Hit(file, pattern.getKey()));
                    }
                }
                carried = Math.min(longest - 1, filled);
                System.arraycopy(buffer, filled - carried, buffer, 0, carried);
            }
        }
        return total;
    }

    private static boolean contains(byte[] data, int length, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
