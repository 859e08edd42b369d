package lab.continuationreplay.matrix.verify;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.matrix.cases.CrossSdkCells;
import lab.continuationreplay.matrix.cases.MatrixCase;
import lab.continuationreplay.matrix.cases.MatrixCases;

/** Verifies every attempt a {@code lab matrix} folder holds: {@code java/}, {@code typescript/}, {@code cross-*}/. */
public final class MatrixFolder {
    private MatrixFolder() {}

    /** The verdict per attempt folder name, SDKs first, then the cross-SDK cells in name order; empty if none. */
    public static Map<String, Verifier.Verdict> verify(Path folder) throws Exception {
        List<String> names = new ArrayList<>(List.of("java", "typescript"));
        try (var entries = Files.list(folder)) {
            entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("cross-")).sorted().forEach(names::add);
        }
        Map<String, Verifier.Verdict> verdicts = new LinkedHashMap<>();
        for (String name : names) {
            Path attempt = folder.resolve(name);
            if (Files.isDirectory(attempt)) {
                List<MatrixCase> cases = name.startsWith("cross-")
                        ? CrossSdkCells.cell(CrossSdkCells.kinds(name)[0], CrossSdkCells.kinds(name)[1]) : MatrixCases.all();
                verdicts.put(name, Verifier.verify(attempt, cases));
            }
        }
        return verdicts;
    }
}
