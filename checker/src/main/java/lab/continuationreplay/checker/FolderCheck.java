package lab.continuationreplay.checker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.history.AttemptKind;
import lab.continuationreplay.history.Layout;

/**
 * Verifies every attempt a {@code lab matrix}, {@code lab clients} or {@code lab replicas} folder holds: {@code java/},
 * {@code typescript/}, {@code cross-*}/, {@code client-*}/, {@code replicas-*}/.
 */
public final class FolderCheck {
    private FolderCheck() {}

    /** The verdict per attempt folder name, SDKs first, then the cross-SDK cells in name order; empty if none. */
    public static Map<String, Verdict> verify(Path folder) throws IOException {
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        for (String name : attempts(folder)) {
            verdicts.put(name, AttemptCheck.verify(folder.resolve(name)));
        }
        return verdicts;
    }

    /** The attempt folders present: the SDK columns ({@link Layout#SDK_COLUMNS}), then their -http forms, then http-cases-*, cross-*, client-* and replicas-* by name. */
    public static List<String> attempts(Path folder) throws IOException {
        List<String> names = new ArrayList<>();
        List<String> columns = new ArrayList<>(Layout.SDK_COLUMNS);
        Layout.SDK_COLUMNS.forEach(sdk -> columns.add(sdk + Layout.HTTP_SUFFIX));
        for (String sdk : columns) {
            if (Files.isDirectory(folder.resolve(sdk))) {
                names.add(sdk);
            }
        }
        if (Files.isDirectory(folder)) {
            try (Stream<Path> entries = Files.list(folder)) {
                entries.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                        .filter(n -> AttemptKind.of(n).filter(kind -> kind != AttemptKind.SDK).isPresent())
                        .sorted(java.util.Comparator.comparing((String n) -> AttemptKind.judged(n)).thenComparing(n -> n))
                        .forEach(names::add);
            }
        }
        return names;
    }
}
