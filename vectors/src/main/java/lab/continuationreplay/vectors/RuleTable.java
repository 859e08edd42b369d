package lab.continuationreplay.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A shared rule table, {@code vectors/rules/<file>}: cases of inputs and the verdict each language must give for them.
 * The Java tests read the tables through this class, the TypeScript tests through {@code ts-fixture/test/rule-table.ts};
 * both apply the same format rules, so a table that one language could misread fails in both.
 *
 * <p>A case has a unique {@code name}. Either {@code expect} (what both languages give) or {@code expect_by_language}
 * ({@code {"java": …, "typescript": …}}, two different verdicts) with a {@code difference} saying why. An optional
 * {@code expand} maps a placeholder to {@code {"repeat": text, "times": n}}: every string of the case equal to the
 * placeholder stands for the text repeated n times (long inputs stay readable). A {@code note} is prose for readers.
 */
public record RuleTable(Path file, JsonNode root) {
    public static final String JAVA = "java";
    public static final String TYPESCRIPT = "typescript";

    /** One case as one language must see it: placeholders expanded, its own verdict picked. */
    public record Case(String name, JsonNode row, JsonNode expected, String difference) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * Reads {@code <repository>/vectors/rules/<file>}. The repository is {@code -Dlab.home} (the poms set it for the
     * tests); without it, the nearest folder above the working directory that holds {@code vectors/rules/<file>}.
     */
    public static RuleTable load(String file) {
        Path path = home(file).resolve("vectors").resolve("rules").resolve(file);
        try {
            return new RuleTable(path, ExactJson.parse(Files.readString(path)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shared rule table " + path, e);
        }
    }

    private static Path home(String file) {
        String property = System.getProperty("lab.home");
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("vectors").resolve("rules").resolve(file))) {
                return dir;
            }
        }
        throw new IllegalStateException("no vectors/rules/" + file + " above " + Path.of("").toAbsolutePath()
                + "; set -Dlab.home to the repository");
    }

    /** The table's top-level member {@code name} (the base environment, say). */
    public JsonNode member(String name) {
        JsonNode value = root.get(name);
        if (value == null) {
            throw new IllegalStateException(file + " has no member \"" + name + "\"");
        }
        return value;
    }

    /**
     * A case's input built on a base value: {@code status_is} (the whole value) when the case has it, else a copy of
     * {@code base} with the members of the case's {@code set} replaced or added and those named in {@code remove}
     * taken out. Long inputs that differ in one member stay readable that way.
     */
    public static JsonNode onBase(JsonNode base, JsonNode row) {
        if (row.has("status_is")) {
            return row.get("status_is");
        }
        ObjectNode copy = ((ObjectNode) base).deepCopy();
        row.path("set").fields().forEachRemaining(member -> copy.set(member.getKey(), member.getValue()));
        row.path("remove").forEach(name -> copy.remove(name.asText()));
        return copy;
    }

    /** Every case, as {@code language} must see it; the table's format is checked on the way. */
    public List<Case> cases(String language) {
        if (!JAVA.equals(language) && !TYPESCRIPT.equals(language)) {
            throw new IllegalArgumentException("unknown language " + language);
        }
        JsonNode cases = root.get("cases");
        if (cases == null || !cases.isArray() || cases.isEmpty()) {
            throw new IllegalStateException(file + ": \"cases\" must be a non-empty array");
        }
        Set<String> names = new HashSet<>();
        List<Case> out = new ArrayList<>();
        for (JsonNode row : cases) {
            String name = row.path("name").asText("");
            if (name.isEmpty() || !names.add(name)) {
                throw new IllegalStateException(file + ": every case needs a name of its own, not \"" + name + "\"");
            }
            JsonNode expanded = expandCase(row);
            out.add(new Case(name, expanded, verdict(name, expanded, language), row.path("difference").asText(null)));
        }
        return List.copyOf(out);
    }

    private JsonNode verdict(String name, JsonNode row, String language) {
        JsonNode common = row.get("expect");
        JsonNode each = row.get("expect_by_language");
        JsonNode difference = row.get("difference");
        if ((common == null) == (each == null)) {
            throw new IllegalStateException(file + ": case \"" + name + "\" needs exactly one of expect, expect_by_language");
        }
        if (common != null) {
            if (difference != null) {
                throw new IllegalStateException(file + ": case \"" + name + "\" has a difference but one verdict");
            }
            return common;
        }
        JsonNode java = each.get(JAVA);
        JsonNode typeScript = each.get(TYPESCRIPT);
        if (java == null || typeScript == null || each.size() != 2) {
            throw new IllegalStateException(file + ": case \"" + name + "\" needs exactly a java and a typescript verdict");
        }
        if (java.equals(typeScript)) {
            throw new IllegalStateException(file + ": case \"" + name + "\" gives both languages one verdict; use expect");
        }
        if (difference == null || !difference.isTextual() || difference.textValue().isBlank()) {
            throw new IllegalStateException(file + ": case \"" + name + "\" must say in \"difference\" why the languages differ");
        }
        return each.get(language);
    }

    /** The case with its placeholders expanded everywhere but in {@code expand} itself. */
    private static JsonNode expandCase(JsonNode row) {
        JsonNode expansions = row.path("expand");
        if (expansions.isMissingNode()) {
            return row;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            copy.set(member.getKey(), member.getKey().equals("expand") ? member.getValue() : expand(member.getValue(), expansions));
        }
        return copy;
    }

    /** A copy of {@code value} with every string equal to a placeholder of {@code expansions} replaced. */
    private static JsonNode expand(JsonNode value, JsonNode expansions) {
        if (value.isTextual() && expansions.has(value.textValue())) {
            JsonNode how = expansions.get(value.textValue());
            return JsonNodeFactory.instance.textNode(how.path("repeat").asText().repeat(how.path("times").asInt()));
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(item -> copy.add(expand(item, expansions)));
            return copy;
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> member = it.next();
                copy.set(member.getKey(), expand(member.getValue(), expansions));
            }
            return copy;
        }
        return value;
    }
}
