package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A check's observer readings by phase. */
final class Observed {
    private final Map<String, JsonNode> byPhase = new LinkedHashMap<>();

    Observed(List<JsonNode> own) {
        own.stream().filter(e -> e.path("kind").asText().equals("observe")).forEach(e -> byPhase.put(e.path("phase").asText(), e));
    }

    Long delta(String from, String to) {
        JsonNode a = byPhase.get(from);
        JsonNode b = byPhase.get(to);
        if (a == null || b == null || !a.path("value").isIntegralNumber() || !b.path("value").isIntegralNumber()) {
            return null;
        }
        return b.path("value").asLong() - a.path("value").asLong();
    }

    String why() {
        for (JsonNode reading : byPhase.values()) {
            if (reading.has("error")) {
                return "the observer failed: " + reading.path("error").asText();
            }
        }
        return "no observer: the effects were not counted (give --effects-cmd or --effects-sqlite)";
    }
}
