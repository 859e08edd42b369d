package lab.continuationreplay.server;

/** Placeholder replaced by the guarded server (Step 3). */
final class GuardedServerMain {
    private GuardedServerMain() {}

    public static void main(String[] args) {
        System.err.println("java-server: not built yet");
        System.exit(2);
    }
}
