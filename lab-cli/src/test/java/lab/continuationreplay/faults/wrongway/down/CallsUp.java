package lab.continuationreplay.faults.wrongway.down;

import lab.continuationreplay.faults.wrongway.up.CallsDown;

/** Planted for ModuleDirectionTest: the other half of the cycle. */
public final class CallsUp {
    private CallsUp() {}

    public static int depth(int n) {
        return n <= 0 ? 0 : CallsDown.depth(n - 1) + 1;
    }
}
