package lab.continuationreplay.matrix.versions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.Sdk;
import lab.continuationreplay.matrix.run.Provenance;

/**
 * How one SDK's fixture is laid out and built against a release's committed lock, in that release's own home. The
 * fixture's sources are linked, never copied, so a row differs from the default column only in what the lock
 * installs.
 */
sealed interface FixtureRecipe
        permits FixtureRecipe.Java, FixtureRecipe.TypeScript, FixtureRecipe.Python, FixtureRecipe.Go, FixtureRecipe.Rust {

    /** The recipe of {@code sdk}. */
    static FixtureRecipe of(Sdk sdk) {
        return switch (sdk) {
            case JAVA -> new Java();
            case TYPESCRIPT -> new TypeScript();
            case PYTHON -> new Python();
            case GO -> new Go();
            case RUST -> new Rust();
        };
    }

    /** The files committed in {@code versions/<sdk>/<release>/}; the last is the lock the record names. */
    List<String> lockFiles();

    /** The script that makes those files. */
    String lockScript();

    /** The fixture's own files the build reads besides the lock (for the digest that keeps a build). */
    List<Path> sources(Path home) throws IOException;

    /** Fills the release's fixture folder: links to the sources, copies of the lock and of what the build writes beside. */
    void lay(Path home, Path lock, Path fixture) throws IOException;

    /** Runs the build's steps for release {@code version}. */
    Outcome build(Path home, Path fixture, String version, Steps steps) throws IOException, InterruptedException;

    /**
     * What a build reported: type errors a compiler gave while still emitting code (the row is played), and the errors
     * that stopped it (the row is not built, and the first says why).
     */
    record Outcome(List<String> typeErrors, List<String> errors) {
        static Outcome clean() {
            return new Outcome(List.of(), List.of());
        }

        static Outcome failed(Exec.Result step, java.util.function.Predicate<String> errorLine) {
            List<String> errors = step.output().lines().filter(errorLine).toList();
            return new Outcome(List.of(), errors.isEmpty() ? List.of("exit " + step.exitStatus() + " without an error line") : errors);
        }
    }

    /** Whether the build left a fixture the matrix can start. */
    boolean built(Path fixture);

    /** The SDK version the registry delivered, read from what was installed; empty when nothing was. */
    String installed(Path fixture) throws IOException;

    /** Every regular file under {@code folder}, in name order: the build's inputs for its digest. */
    private static List<Path> filesUnder(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** Copies the release's committed lock files into its fixture folder. */
    default void copyLock(Path lock, Path fixture) throws IOException {
        for (String file : lockFiles()) {
            Files.copy(lock.resolve(file), fixture.resolve(file));
        }
    }

    /** Runs one build step and records it. */
    @FunctionalInterface
    interface Steps {
        Exec.Result run(Path folder, String shown, List<String> command) throws IOException, InterruptedException;
    }

    /**
     * {@code io.modelcontextprotocol.sdk} ({@code mcp-core} and {@code mcp-json-jackson2}): Maven resolves the two at
     * the release with their own transitive versions (the committed {@code pom.xml}, checked against
     * {@code resolved.txt}); the server's other runtime jars are the lab's own ({@code java-server/target/lib}); then
     * {@code javac} compiles the server's sources against them and the jar is written as the lab's build writes it
     * (its manifest's {@code Class-Path} names {@code lib/}).
     */
    record Java() implements FixtureRecipe {
        private static final Pattern JAR = Pattern.compile("(.+?)-([0-9].*)\\.jar");
        private static final String MAIN = "lab.continuationreplay.server.GuardedServerMain";

        @Override
        public List<String> lockFiles() {
            return List.of("pom.xml", "resolved.txt");
        }

        @Override
        public String lockScript() {
            return "versions/lock-java.sh";
        }

        @Override
        public List<Path> sources(Path home) throws IOException {
            List<Path> inputs = new ArrayList<>(List.of(home.resolve("vectors/rules/tools.json")));
            inputs.addAll(filesUnder(home.resolve("java-server/src/main")));
            // the lab's own jars the server runs with (the shared store among them) change with the lab
            try (Stream<Path> jars = Files.list(labLib(home))) {
                jars.filter(j -> !sdkArtifact(j.getFileName().toString())).sorted().forEach(inputs::add);
            }
            return inputs;
        }

        @Override
        public void lay(Path home, Path lock, Path fixture) throws IOException {
            Files.createSymbolicLink(fixture.resolve("src"), home.resolve("java-server/src").toAbsolutePath());
            Files.copy(lock.resolve("pom.xml"), fixture.resolve("sdk-pom.xml"));
            Files.createDirectories(fixture.resolve("target/lib"));
        }

        @Override
        public Outcome build(Path home, Path fixture, String version, Steps steps) throws IOException, InterruptedException {
            Exec.Result resolved = steps.run(fixture, "mvn -f sdk-pom.xml dependency:copy-dependencies",
                    List.of("mvn", "-q", "-B", "-f", "sdk-pom.xml", "dependency:copy-dependencies", "-DincludeScope=runtime",
                            "-DoutputDirectory=target/sdk-lib"));
            if (!resolved.succeeded()) {
                return Outcome.failed(resolved, l -> l.contains("[ERROR]"));
            }
            Path sdkLib = fixture.resolve("target/sdk-lib");
            List<String> got;
            try (Stream<Path> jars = Files.list(sdkLib)) {
                got = jars.map(j -> j.getFileName().toString()).filter(n -> n.endsWith(".jar")).sorted().toList();
            }
            List<String> locked = Files.readAllLines(home.resolve("versions/java").resolve(version).resolve("resolved.txt")).stream()
                    .filter(l -> !l.isBlank()).sorted().toList();
            if (!got.equals(locked)) {
                return new Outcome(List.of(), List.of("Maven resolved " + got + ", not resolved.txt's " + locked));
            }
            Path lib = fixture.resolve("target/lib");
            List<String> artifacts = got.stream().map(Java::artifact).toList();
            for (String jar : got) {
                Files.copy(sdkLib.resolve(jar), lib.resolve(jar));
            }
            try (Stream<Path> jars = Files.list(labLib(home))) {
                for (Path jar : jars.sorted().toList()) {
                    if (!artifacts.contains(artifact(jar.getFileName().toString()))) {
                        Files.copy(jar, lib.resolve(jar.getFileName()));
                    }
                }
            }
            List<String> classPath;
            try (Stream<Path> jars = Files.list(lib)) {
                classPath = jars.map(j -> "lib/" + j.getFileName()).sorted().toList();
            }
            Path sourcesFile = fixture.resolve("target/sources.txt");
            // named from the release's folder (its src/ links to the lab's), so that the errors name no machine's path
            try (Stream<Path> files = Files.walk(fixture.resolve("src/main/java"))) {
                Files.write(sourcesFile, files.filter(f -> f.toString().endsWith(".java")).map(f -> fixture.relativize(f).toString())
                        .sorted().toList());
            }
            Path classes = Files.createDirectories(fixture.resolve("target/classes"));
            Exec.Result compiled = steps.run(fixture, "javac --release 17 -d target/classes (java-server/src/main/java)",
                    List.of(javac(), "--release", "17", "-nowarn", "-encoding", "UTF-8", "-d", "target/classes", "-cp",
                            String.join(java.io.File.pathSeparator, classPath.stream().map(c -> "target/" + c).toList()),
                            "@target/sources.txt"));
            if (!compiled.succeeded()) {
                return Outcome.failed(compiled, l -> l.matches(".*\\.java:[0-9]+: error: .*"));
            }
            copyTree(home.resolve("java-server/src/main/resources"), classes);
            Path tools = Files.createDirectories(classes.resolve("lab/continuationreplay/server/tools"));
            Files.copy(home.resolve("vectors/rules/tools.json"), tools.resolve("tools.json"));
            writeJar(classes, fixture.resolve("target/java-server.jar"), classPath);
            return Outcome.clean();
        }

        @Override
        public boolean built(Path fixture) {
            return Files.isRegularFile(fixture.resolve("target/java-server.jar"));
        }

        @Override
        public String installed(Path fixture) throws IOException {
            String found = Provenance.jarVersion(fixture.resolve("target/sdk-lib"), "mcp-core-");
            return "unavailable".equals(found) ? "" : found;
        }

        private static Path labLib(Path home) {
            return home.resolve("java-server/target/lib");
        }

        /** {@code reactor-core-3.9.0-RC1.jar} is artifact {@code reactor-core}. */
        static String artifact(String jar) {
            Matcher m = JAR.matcher(jar);
            return m.matches() ? m.group(1) : jar;
        }

        private static boolean sdkArtifact(String jar) {
            return artifact(jar).equals("mcp-core") || artifact(jar).equals("mcp-json-jackson2");
        }

        private static void writeJar(Path classes, Path jar, List<String> classPath) throws IOException {
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, MAIN);
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                    Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace(java.io.File.separatorChar, '/')));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
        }

        private static void copyTree(Path from, Path to) throws IOException {
            if (!Files.isDirectory(from)) {
                return;
            }
            try (Stream<Path> files = Files.walk(from)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Path target = to.resolve(from.relativize(file).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target);
                }
            }
        }

        /** The JDK that runs the lab compiles the server, as it builds the lab. */
        private static String javac() {
            return Path.of(System.getProperty("java.home"), "bin", "javac").toString();
        }
    }

    /** {@code @modelcontextprotocol/server}: {@code npm ci} from the release's lock, then {@code tsc}. */
    record TypeScript() implements FixtureRecipe {
        @Override
        public List<String> lockFiles() {
            return List.of("package.json", "package-lock.json");
        }

        @Override
        public String lockScript() {
            return "versions/lock-typescript.sh";
        }

        @Override
        public List<Path> sources(Path home) throws IOException {
            List<Path> inputs = new ArrayList<>(List.of(home.resolve("ts-fixture/tsconfig.json"), home.resolve("vectors/rules/tools.json")));
            inputs.addAll(filesUnder(home.resolve("ts-fixture/src")));
            return inputs;
        }

        @Override
        public void lay(Path home, Path lock, Path fixture) throws IOException {
            Files.createSymbolicLink(fixture.resolve("src"), home.resolve("ts-fixture/src").toAbsolutePath());
            Files.copy(home.resolve("ts-fixture/tsconfig.json"), fixture.resolve("tsconfig.json"));
            copyLock(lock, fixture);
        }

        @Override
        public Outcome build(Path home, Path fixture, String version, Steps steps) throws IOException, InterruptedException {
            Exec.Result installed = steps.run(fixture, "npm ci --no-audit --no-fund", List.of(npm(), "ci", "--no-audit", "--no-fund"));
            if (!installed.succeeded()) {
                return Outcome.failed(installed, l -> l.startsWith("npm error") || l.startsWith("npm ERR!"));
            }
            // tsc emits JavaScript despite type errors; each is recorded, and the row says where they are.
            Exec.Result compiled = steps.run(fixture, "tsc -p tsconfig.json",
                    List.of(fixture.resolve("node_modules/.bin/tsc").toString(), "-p", "tsconfig.json"));
            Path dist = fixture.resolve("dist");
            if (Files.isDirectory(dist)) {
                Files.copy(home.resolve("vectors/rules/tools.json"), dist.resolve("tools.json"));
            }
            List<String> typeErrors = compiled.output().lines().filter(l -> l.contains("error TS")).toList();
            return new Outcome(typeErrors, built(fixture) ? List.of() : List.of("tsc emitted no dist/server.js"));
        }

        @Override
        public boolean built(Path fixture) {
            return Files.isRegularFile(fixture.resolve("dist/server.js"));
        }

        @Override
        public String installed(Path fixture) throws IOException {
            Path manifest = fixture.resolve("node_modules/@modelcontextprotocol/server/package.json");
            return Files.isRegularFile(manifest) ? Provenance.packageVersion(manifest) : "";
        }

        private static String npm() {
            String configured = System.getenv("LAB_NPM");
            return configured != null && !configured.isBlank() ? configured : "npm";
        }
    }

    /**
     * {@code mcp} on PyPI: the fixture's own {@code build_venv.py} (copied, so that it builds beside itself) makes the
     * release's virtual environment from its hashed lock, exactly as the default column's build does.
     */
    record Python() implements FixtureRecipe {
        @Override
        public List<String> lockFiles() {
            return List.of("requirements.lock");
        }

        @Override
        public String lockScript() {
            return "versions/lock-python.sh";
        }

        @Override
        public List<Path> sources(Path home) throws IOException {
            List<Path> inputs = new ArrayList<>(List.of(home.resolve("py-fixture/build_venv.py")));
            filesUnder(home.resolve("py-fixture/src")).stream().filter(f -> !f.toString().contains("__pycache__")).forEach(inputs::add);
            return inputs;
        }

        @Override
        public void lay(Path home, Path lock, Path fixture) throws IOException {
            Files.createSymbolicLink(fixture.resolve("src"), home.resolve("py-fixture/src").toAbsolutePath());
            Files.copy(home.resolve("py-fixture/build_venv.py"), fixture.resolve("build_venv.py"));
            copyLock(lock, fixture);
        }

        @Override
        public Outcome build(Path home, Path fixture, String version, Steps steps) throws IOException, InterruptedException {
            Exec.Result venv = steps.run(fixture, "python3 build_venv.py", List.of("python3", "build_venv.py"));
            return venv.succeeded() ? Outcome.clean() : Outcome.failed(venv, l -> l.startsWith("ERROR") || l.contains("DO NOT MATCH"));
        }

        @Override
        public boolean built(Path fixture) {
            // build_venv.py writes its stamp last, after pip check: a venv without it was not finished
            return Files.isRegularFile(fixture.resolve(".venv/lab-lock.sha256")) && Files.exists(fixture.resolve(".venv/bin/python"));
        }

        @Override
        public String installed(Path fixture) throws IOException {
            return Provenance.pythonDistribution(fixture.resolve(".venv"), "mcp");
        }
    }

    /**
     * {@code github.com/modelcontextprotocol/go-sdk}: {@code go build} of the fixture's commands against the release's
     * {@code go.mod} and {@code go.sum}. The sources are copied, not linked: Go's package patterns do not follow links.
     * Releases before v1.8.0 build with the tag {@code gosdk_before_v1_8}, which picks the fixture's adapter for the
     * two server options v1.8.0 added ({@code go-fixture/cmd/go-fixture/sdk_options_before_v1_8.go}).
     */
    record Go() implements FixtureRecipe {
        static final String MODULE = "github.com/modelcontextprotocol/go-sdk";
        static final String ADAPTER_TAG = "gosdk_before_v1_8";

        @Override
        public List<String> lockFiles() {
            return List.of("go.mod", "go.sum");
        }

        @Override
        public String lockScript() {
            return "versions/lock-go.sh";
        }

        @Override
        public List<Path> sources(Path home) throws IOException {
            List<Path> inputs = new ArrayList<>();
            for (String tree : List.of("cmd", "internal")) {
                inputs.addAll(filesUnder(home.resolve("go-fixture").resolve(tree)));
            }
            return inputs;
        }

        @Override
        public void lay(Path home, Path lock, Path fixture) throws IOException {
            for (String tree : List.of("cmd", "internal")) {
                Path from = home.resolve("go-fixture").resolve(tree);
                try (Stream<Path> files = Files.walk(from)) {
                    for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                        Path to = fixture.resolve(tree).resolve(from.relativize(file).toString());
                        if (Files.isDirectory(file)) {
                            Files.createDirectories(to);
                        } else {
                            Files.copy(file, to);
                        }
                    }
                }
            }
            copyLock(lock, fixture);
        }

        @Override
        public Outcome build(Path home, Path fixture, String version, Steps steps) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of("go", "build"));
            if (Release.compareVersions(version, "1.8.0") < 0) {
                command.addAll(List.of("-tags", ADAPTER_TAG));
            }
            command.addAll(List.of("-o", "target/bin/", "./cmd/..."));
            Exec.Result built = steps.run(fixture, String.join(" ", command), command);
            return built.succeeded() ? Outcome.clean() : Outcome.failed(built, l -> l.matches("[^\\s:]+\\.go:[0-9]+:[0-9]+: .*")
                    || l.startsWith("go: "));
        }

        @Override
        public boolean built(Path fixture) {
            return Files.isRegularFile(fixture.resolve("target/bin/go-fixture"));
        }

        @Override
        public String installed(Path fixture) throws IOException {
            // the module proxy's copy, checked against go.sum: what a build of this release compiles, built or not
            try {
                Exec.Result found = Exec.command("go", "mod", "download", "-json", MODULE).withDirectory(fixture)
                        .withStderr(Exec.Io.DISCARD).run(java.time.Duration.ofMinutes(5));
                if (!found.succeeded()) {
                    return "";
                }
                String version = lab.continuationreplay.vectors.ExactJson.parse(found.output()).path("Version").asText("");
                return version.startsWith("v") ? version.substring(1) : version;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "";
            }
        }
    }

    /**
     * {@code rmcp} on crates.io: {@code cargo build --release --locked} of the fixture's server against the release's
     * {@code Cargo.toml} and {@code Cargo.lock}, in one cargo target folder that every release shares
     * ({@code target/versions/rust-target}), so that the crates two releases have in common compile once. Releases
     * before 3.2.0 build with the feature {@code rmcp-before-3-2}, the fixture's stand-in for two calls they lack.
     */
    record Rust() implements FixtureRecipe {
        static final String ADAPTER_FEATURE = "rmcp-before-3-2";

        @Override
        public List<String> lockFiles() {
            return List.of("Cargo.toml", "Cargo.lock");
        }

        @Override
        public String lockScript() {
            return "versions/lock-rust.sh";
        }

        @Override
        public List<Path> sources(Path home) throws IOException {
            List<Path> inputs = new ArrayList<>(List.of(home.resolve("rust-fixture/build.rs"), home.resolve("vectors/rules/tools.json")));
            inputs.addAll(filesUnder(home.resolve("rust-fixture/src")));
            return inputs;
        }

        @Override
        public void lay(Path home, Path lock, Path fixture) throws IOException {
            Files.createSymbolicLink(fixture.resolve("src"), home.resolve("rust-fixture/src").toAbsolutePath());
            Files.copy(home.resolve("rust-fixture/build.rs"), fixture.resolve("build.rs"));
            copyLock(lock, fixture);
        }

        @Override
        public Outcome build(Path home, Path fixture, String version, Steps steps) throws IOException, InterruptedException {
            // relative to the release's folder (target/versions/rust-<release>/rust-fixture), so the record names no machine's path
            String shared = "../../rust-target";
            List<String> command = new ArrayList<>(List.of("cargo", "build", "--release", "--locked", "--quiet", "--bin", "rust-fixture",
                    "--target-dir", shared));
            if (Release.compareVersions(version, "3.2.0") < 0) {
                command.addAll(List.of("--features", ADAPTER_FEATURE));
            }
            Exec.Result built = steps.run(fixture, String.join(" ", command), command);
            if (!built.succeeded()) {
                return Outcome.failed(built, l -> l.startsWith("error"));
            }
            Path binary = Files.createDirectories(fixture.resolve("target/release")).resolve("rust-fixture");
            Files.copy(fixture.resolve(shared).resolve("release/rust-fixture"), binary, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            return Outcome.clean();
        }

        @Override
        public boolean built(Path fixture) {
            return Files.isRegularFile(fixture.resolve("target/release/rust-fixture"));
        }

        @Override
        public String installed(Path fixture) throws IOException {
            // the lock's rmcp, which cargo build --locked holds the build to (and its checksum the download)
            return Provenance.cargoLocked(fixture.resolve("Cargo.lock"), "rmcp");
        }
    }
}
