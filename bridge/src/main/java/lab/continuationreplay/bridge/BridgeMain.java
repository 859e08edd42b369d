package lab.continuationreplay.bridge;

/** Placeholder replaced by the bridge (Step 4). */
final class BridgeMain {
    private BridgeMain() {}

    public static void main(String[] args) {
        System.err.println("bridge: not built yet");
        System.exit(2);
    }
}
