package lab.continuationreplay.faults.wrongway;

import java.nio.file.Path;
import lab.continuationreplay.checker.faults.FaultsCheck;

/** Planted for ModuleDirectionTest: an experiment that would judge the fault history it just wrote. */
public final class JudgesItsOwnFaults {
    private JudgesItsOwnFaults() {}

    public static boolean passed(Path run) throws Exception {
        return FaultsCheck.derive(run).values().stream().allMatch(java.util.List::isEmpty);
    }
}
