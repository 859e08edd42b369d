package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of the shared client-script table ({@code vectors/rules/client-script.json}) through
 * {@link StepScript#parse(String, Map)}: the four drivers are held to one table, so a refusal worded or ordered
 * differently in one of them fails its own suite.
 */
class ClientScriptRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> MEMBERS = Set.of("id", "text", "set", "remove", "steps", "expect", "note");
    private static final JsonNode TABLE = load();

    /** The repository is {@code -Dlab.home} (the pom sets it); without it, the nearest folder above holding the table. */
    private static JsonNode load() {
        Path relative = Path.of("vectors", "rules", "client-script.json");
        String home = System.getProperty("lab.home");
        Path dir = home == null || home.isBlank() ? Path.of("").toAbsolutePath() : Path.of(home).toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve(relative))) {
            dir = home == null || home.isBlank() ? dir.getParent() : null;
        }
        if (dir == null) {
            throw new IllegalStateException("no " + relative + " in the repository; set -Dlab.home");
        }
        try {
            return JSON.readTree(dir.resolve(relative).toFile());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + dir.resolve(relative), e);
        }
    }

    private static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        TABLE.get("environment").fields().forEachRemaining(e -> environment.put(e.getKey(), e.getValue().textValue()));
        return environment;
    }

    private static String scriptText(JsonNode row) throws IOException {
        if (row.has("text")) {
            return row.get("text").textValue();
        }
        ObjectNode document = TABLE.get("base").deepCopy();
        row.path("set").fields().forEachRemaining(member -> document.set(member.getKey(), member.getValue().deepCopy()));
        row.path("remove").forEach(name -> document.remove(name.textValue()));
        if (row.has("steps")) {
            document.set("steps", row.get("steps").deepCopy());
        }
        return JSON.writeValueAsString(document);
    }

    /** "<step> <op>" for every step that gets a record: a parallel step's inner steps, not the parallel step. */
    private static List<String> recordedSteps(StepScript script) {
        List<String> out = new ArrayList<>();
        for (Step step : script.steps()) {
            for (Step one : step.op() == Op.PARALLEL ? step.inner() : List.of(step)) {
                out.add(one.id() + " " + one.op().wireName());
            }
        }
        return out;
    }

    @Test
    void theTableIsWellFormed() {
        assertEquals("client-script-rules/1", TABLE.path("format").textValue());
        Set<String> ids = new HashSet<>();
        for (JsonNode row : TABLE.get("cases")) {
            String id = row.path("id").asText("");
            assertTrue(!id.isEmpty() && ids.add(id), "every case needs an id of its own, not \"" + id + "\"");
            row.fieldNames().forEachRemaining(name -> assertTrue(MEMBERS.contains(name), id + ": " + name));
            assertFalse(row.has("text") && (row.has("set") || row.has("remove") || row.has("steps")), id);
            assertEquals(1, row.path("expect").size(), id);
        }
        assertTrue(ids.size() > 100, "cases: " + ids.size());
    }

    @TestFactory
    Stream<DynamicTest> everyCaseOfTheTable() {
        Map<String, String> environment = environment();
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode row : TABLE.get("cases")) {
            tests.add(DynamicTest.dynamicTest(row.get("id").textValue(), () -> {
                String text = scriptText(row);
                JsonNode expect = row.get("expect");
                if (expect.has("accepted")) {
                    List<String> want = new ArrayList<>();
                    expect.get("accepted").forEach(step -> want.add(step.textValue()));
                    assertEquals(want, recordedSteps(StepScript.parse(text, environment)));
                    return;
                }
                String line = assertThrows(ScriptException.class, () -> StepScript.parse(text, environment)).getMessage();
                if (expect.has("error")) {
                    assertEquals(expect.get("error").textValue(), line);
                } else {
                    assertTrue(line.startsWith(expect.get("error_starts").textValue()) && !line.contains("\n"), line);
                }
            }));
        }
        return tests.stream();
    }
}
