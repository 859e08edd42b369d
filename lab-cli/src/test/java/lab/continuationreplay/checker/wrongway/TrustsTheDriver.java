package lab.continuationreplay.checker.wrongway;

import lab.continuationreplay.core.client.ToolClient;

/** Planted for ModuleDirectionTest: a checker class that would read replies through the runner's own client. */
public final class TrustsTheDriver {
    private TrustsTheDriver() {}

    public static String tool() {
        return ToolClient.CREATE;
    }

    public static Class<?> client() {
        return ToolClient.class;
    }
}
