package lab.continuationreplay.matrix.versions;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.VersionsLayout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A lab home for one release: {@code <home>/target/versions/<sdk>-<version>/}, where every entry of the lab's home is
 * a link to the real one except the SDK's fixture folder, which holds the fixture's own sources (linked) built
 * against the release's committed lock ({@link FixtureRecipe}), and {@code target/}, its own. The matrix then runs in
 * that home unchanged, so a row measures the release, not another runner. A build is kept while its lock and the
 * fixture's sources stay the same (a digest of both in {@link #STAMP}).
 */
public final class ReleaseHome {
    /** The build's record, beside the built folder, and copied into the run's history as {@code build.json}. */
    public static final String STAMP = "release-build.json";
    private static final Duration STEP_LIMIT = Duration.ofMinutes(10);

    private ReleaseHome() {}

    /** What building one release did: its record (written as {@code build.json}) and the full output of its steps. */
    public record Built(Path home, ObjectNode record, String log) {
        public boolean playable() {
            return record.path("built").asBoolean();
        }
    }

    /** Builds {@code release} in its own home under {@code home}, or finds it built from the same lock and sources. */
    public static Built prepare(Path home, Release release) throws IOException, InterruptedException {
        FixtureRecipe recipe = FixtureRecipe.of(release.sdk());
        Path lock = release.lockFolder(home);
        for (String file : recipe.lockFiles()) {
            if (!Files.isRegularFile(lock.resolve(file))) {
                throw new IllegalArgumentException("no lock for " + release.label() + " in " + home.relativize(lock)
                        + " (" + recipe.lockScript() + " makes it)");
            }
        }
        String folderName = release.sdk().serverFolder();
        Path own = home.resolve("target").resolve("versions").resolve(release.label());
        String digest = digest(home, lock, recipe);
        Path stamp = own.resolve(STAMP);
        if (Files.isRegularFile(stamp)) {
            ObjectNode earlier = (ObjectNode) ExactJson.parse(Files.readString(stamp));
            if (digest.equals(earlier.path("inputs_sha256").asText())
                    && recipe.built(own.resolve(folderName)) == earlier.path("built").asBoolean()) {
                earlier.put("reused", true);
                return new Built(own, earlier, "");
            }
        }
        deleteTree(own);
        Files.createDirectories(own.resolve("target"));
        try (Stream<Path> entries = Files.list(home)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (!List.of(".git", "target", folderName).contains(name)) {
                    Files.createSymbolicLink(own.resolve(name), entry.toAbsolutePath());
                }
            }
        }
        Path fixture = Files.createDirectories(own.resolve(folderName));
        recipe.lay(home, lock, fixture);

        Path lockFile = lock.resolve(recipe.lockFiles().get(recipe.lockFiles().size() - 1));
        ObjectNode record = ExactJson.mapper().createObjectNode();
        record.put("format", VersionsLayout.BUILD_FORMAT);
        record.put("sdk", release.sdk().label());
        record.put("release", release.version());
        record.put("lock", home.relativize(lockFile).toString());
        record.put("lock_sha256", ArtifactHashes.sha256(lockFile));
        record.put("inputs_sha256", digest);
        ArrayNode steps = record.putArray("steps");
        StringBuilder log = new StringBuilder();
        FixtureRecipe.Outcome outcome = recipe.build(home, fixture, release.version(),
                (folder, shown, command) -> step(steps, log, folder, shown, command));
        ArrayNode typeErrors = record.putArray("type_errors");
        outcome.typeErrors().forEach(typeErrors::add);
        ArrayNode errors = record.putArray("build_errors");
        outcome.errors().forEach(errors::add);
        record.put("installed", recipe.installed(fixture));
        record.put("built", recipe.built(fixture));
        record.put("reused", false);
        Files.writeString(stamp, ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(record) + "\n");
        return new Built(own, record, log.toString());
    }

    /** Runs one build step in {@code folder}: its output to the log, its command (as {@code shown}) and exit to the record. */
    private static Exec.Result step(ArrayNode steps, StringBuilder log, Path folder, String shown, List<String> command)
            throws IOException, InterruptedException {
        Exec.Result result = Exec.command(command).withDirectory(folder).withStderr(Exec.Io.INTO_STDOUT).run(STEP_LIMIT);
        log.append("$ ").append(shown).append('\n').append(result.output()).append("exit ").append(result.exitStatus()).append('\n');
        ObjectNode step = steps.addObject();
        step.put("command", shown);
        step.put("exit", result.exitStatus());
        return result;
    }

    /** The lock and every source the fixture is built from, in name order. */
    private static String digest(Path home, Path lock, FixtureRecipe recipe) throws IOException {
        MessageDigest sha = sha();
        List<Path> inputs = new ArrayList<>();
        recipe.lockFiles().forEach(file -> inputs.add(lock.resolve(file)));
        inputs.addAll(recipe.sources(home));
        for (Path input : inputs) {
            sha.update(home.relativize(input).toString().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(Files.readAllBytes(input));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes a folder the lab made earlier; the walk does not follow links, so a link is removed, not its target. */
    private static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
