package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** What one benchmark measured: its figures (free-form, per benchmark), the goals judged on them, and notes. */
public record BenchResult(String id, String title, String method, ObjectNode figures, List<Goal> goals, List<String> notes) {

    public ObjectNode toJson(double seconds) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("title", title);
        json.put("method", method);
        json.put("duration_s", Round.of(seconds));
        json.set("figures", figures);
        ArrayNode goalList = json.putArray("goals");
        goals.forEach(g -> goalList.add(g.toJson()));
        ArrayNode noteList = json.putArray("notes");
        notes.forEach(noteList::add);
        return json;
    }
}
