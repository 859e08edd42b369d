package lab.continuationreplay.history;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** SHA-256 of the files a case left: the runner records them, the checker recomputes them. */
public final class ArtifactHashes {
    private ArtifactHashes() {}

    /** SHA-256 of every file under {@code folder}, by path relative to {@code root}, in path order. */
    public static Map<String, String> of(Path folder, Path root) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        if (!Files.isDirectory(folder)) {
            return hashes;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                hashes.put(root.relativize(file).toString().replace('\\', '/'), sha256(file));
            }
        }
        return hashes;
    }

    public static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
