package lab.continuationreplay.clients;

import java.util.List;
import java.util.Map;

/** How to start one server of the script: its argv and what the script adds to the driver's environment. */
public record ServerSpec(List<String> command, Map<String, String> env) {
    public ServerSpec {
        command = List.copyOf(command);
        env = Map.copyOf(env);
    }
}
