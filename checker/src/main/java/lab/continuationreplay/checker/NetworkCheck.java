package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;

/**
 * Judges {@code network.json} of a {@code lab replicas} run: the containers must reach their peer (the database) and
 * nothing else: neither the bridge's gateway address nor this host at any of its addresses.
 */
public final class NetworkCheck {
    public static final String FILE = "network.json";
    private static final Set<String> ROLES = Set.of("peer", "gateway", "host");

    private NetworkCheck() {}

    /** Every problem with the run's isolation; empty when the probe reached its peer and nothing else. */
    public static List<String> problems(Path runFolder) throws IOException {
        Path file = runFolder.resolve(FILE);
        if (!Files.exists(file)) {
            return List.of("missing " + file + ": the isolation probe left no record");
        }
        JsonNode record;
        try {
            record = Format.NETWORK.read(Files.readString(file), FILE);
        } catch (FormatException e) {
            return List.of(e.getMessage());
        }
        List<String> problems = new ArrayList<>();
        JsonNode attempts = record.path("attempts");
        if (!attempts.isArray() || attempts.isEmpty()) {
            return List.of(FILE + " holds no attempts");
        }
        boolean peer = false;
        boolean host = false;
        for (JsonNode attempt : attempts) {
            String role = attempt.path("role").asText("");
            JsonNode reached = attempt.path("reached");
            if (!ROLES.contains(role) || !reached.isBoolean() || !attempt.path("target").isTextual()) {
                problems.add(FILE + ": an attempt that is not one the probe makes: " + attempt);
                continue;
            }
            peer |= role.equals("peer");
            host |= role.equals("host");
            if (role.equals("peer") && !reached.booleanValue()) {
                problems.add("a container did not reach its peer " + attempt.path("target").asText());
            }
            if (!role.equals("peer") && reached.booleanValue()) {
                problems.add("a container reached " + attempt.path("target").asText() + " (" + role + "): the network is not isolated");
            }
        }
        if (!peer || !host) {
            problems.add(FILE + " lacks the " + (peer ? "host" : "peer") + " attempt the probe always makes");
        }
        return problems;
    }
}
