package lab.continuationreplay.faults.wrongway.up;

import lab.continuationreplay.faults.wrongway.down.CallsUp;

/** Planted for ModuleDirectionTest: one half of a cycle between two packages of the fault lab. */
public final class CallsDown {
    private CallsDown() {}

    public static int depth(int n) {
        return n <= 0 ? 0 : CallsUp.depth(n - 1) + 1;
    }
}
