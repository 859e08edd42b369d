package lab.continuationreplay.matrix.vectors;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Finds the chosen languages' implementations in a built repository and runs them side by side. */
public final class FingerprintImplementations {
    private FingerprintImplementations() {}

    /**
     * Every chosen language's implementation, each CLI checked to exist before anything runs (a missing build is an
     * {@link IllegalStateException} naming the file and what builds it).
     *
     * @param paths a CLI other than the built one, per language (a test's planted CLI)
     */
    public static List<FingerprintImplementation> resolve(List<FingerprintLanguage> languages, Path home,
            Map<FingerprintLanguage, Path> paths, Duration timeout) {
        for (FingerprintLanguage language : paths.keySet()) {
            if (!languages.contains(language)) {
                throw new IllegalArgumentException("a " + language.label() + " CLI is given but " + language.label()
                        + " is not among the chosen languages");
            }
        }
        List<FingerprintImplementation> implementations = new ArrayList<>();
        for (FingerprintLanguage language : languages) {
            implementations.add(language == FingerprintLanguage.JAVA ? new FingerprintImplementation.InJava()
                    : FingerprintCli.of(language, home, paths.getOrDefault(language, FingerprintCli.defaultPath(language, home)), timeout));
        }
        return List.copyOf(implementations);
    }

    /** Every implementation over the same lines, the CLIs as processes at the same time; results in the given order. */
    public static Map<FingerprintLanguage, FingerprintImplementation.Outputs> runAll(
            List<FingerprintImplementation> implementations, String keyHex, List<String> lines) {
        Map<FingerprintLanguage, CompletableFuture<FingerprintImplementation.Outputs>> running = new LinkedHashMap<>();
        for (FingerprintImplementation implementation : implementations) {
            CompletableFuture<FingerprintImplementation.Outputs> future = new CompletableFuture<>();
            // A thread of its own per language: the common pool has one worker on a 2-core machine.
            Thread thread = new Thread(() -> {
                try {
                    future.complete(implementation.fingerprint(keyHex, lines));
                } catch (RuntimeException | Error e) {
                    future.completeExceptionally(e);
                }
            }, "fingerprint-" + implementation.language().label());
            thread.setDaemon(true);
            thread.start();
            running.put(implementation.language(), future);
        }
        Map<FingerprintLanguage, FingerprintImplementation.Outputs> outputs = new LinkedHashMap<>();
        for (Map.Entry<FingerprintLanguage, CompletableFuture<FingerprintImplementation.Outputs>> entry : running.entrySet()) {
            try {
                outputs.put(entry.getKey(), entry.getValue().join());
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
        return outputs;
    }
}
