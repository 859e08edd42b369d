package lab.continuationreplay.matrix.wrongway;

import java.nio.file.Path;
import lab.continuationreplay.checker.AttemptCheck;

/** Planted for ModuleDirectionTest: a runner class that would judge the history it just wrote. */
public final class JudgesItsOwnRun {
    private JudgesItsOwnRun() {}

    public static boolean passed(Path attempt) throws Exception {
        return AttemptCheck.derive(attempt).ok();
    }
}
