package lab.continuationreplay.conformance.suite;

import java.util.ArrayList;
import java.util.List;

/**
 * What one spec revision requires, as the pinned suite lists it ({@code conformance list --requirements R}): the
 * scored server and client scenarios, and those it runs and reports but never scores (extensions, pending ones).
 * Read from the suite rather than written down here, so moving the pin moves the list with it.
 */
public record Requirements(String revision, List<String> server, List<String> client, List<Unscored> unscored) {
    /** A scenario the suite runs but does not count, and the suite's reason ({@code extension}, {@code pending}, ...). */
    public record Unscored(String scenario, Side side, String why) {}

    public Requirements {
        server = List.copyOf(server);
        client = List.copyOf(client);
        unscored = List.copyOf(unscored);
    }

    public List<String> scored(Side side) {
        return side == Side.SERVER ? server : client;
    }

    public boolean isScored(Side side, String scenario) {
        return scored(side).contains(scenario);
    }

    /**
     * Parses the listing. Its shape: a title line, {@code Server scenarios ...:} and {@code Client scenarios ...:}
     * each followed by {@code   - name} lines, then {@code Run and reported, but never scored:} with {@code   why (n):}
     * groups of {@code     - name [server|client]}. Anything else is refused, naming the line, so a suite whose
     * output changed is noticed rather than half read.
     */
    public static Requirements parse(String revision, String listing) {
        List<String> server = new ArrayList<>();
        List<String> client = new ArrayList<>();
        List<Unscored> unscored = new ArrayList<>();
        List<String> into = null;
        String why = null;
        boolean inUnscored = false;
        int number = 0;
        for (String raw : listing.split("\n", -1)) {
            number++;
            String line = raw.stripTrailing();
            if (line.isBlank() || line.startsWith("Required for ")) {
                continue;
            }
            if (line.startsWith("Server scenarios")) {
                into = server;
                inUnscored = false;
            } else if (line.startsWith("Client scenarios")) {
                into = client;
                inUnscored = false;
            } else if (line.startsWith("Run and reported, but never scored")) {
                into = null;
                inUnscored = true;
            } else if (inUnscored && line.matches("  [a-z][a-z0-9-]* \\(\\d+\\):")) {
                why = line.strip().replaceFirst(" \\(\\d+\\):$", "");
            } else if (inUnscored && why != null && line.matches("    - \\S+ \\[(server|client)\\]")) {
                String entry = line.strip().substring(2);
                int bracket = entry.lastIndexOf(" [");
                unscored.add(new Unscored(entry.substring(0, bracket), Side.fromLabel(entry.substring(bracket + 2, entry.length() - 1)), why));
            } else if (into != null && line.matches("  - \\S+")) {
                into.add(line.strip().substring(2));
            } else {
                throw new IllegalArgumentException("the suite's list of requirements has a line this lab cannot read (line "
                        + number + "): " + line);
            }
        }
        if (server.isEmpty() || client.isEmpty()) {
            throw new IllegalArgumentException("the suite listed no " + (server.isEmpty() ? "server" : "client")
                    + " scenarios for " + revision);
        }
        return new Requirements(revision, server, client, unscored);
    }
}
