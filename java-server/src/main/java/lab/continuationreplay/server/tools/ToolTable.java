package lab.continuationreplay.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The tools a server lists, as {@code vectors/rules/tools.json} declares them for all four servers. The build copies
 * that file into the jar beside this class, so the jar reads it wherever it runs. A tool has name, description,
 * inputSchema and optionally outputSchema; any other member is refused, as the other servers' readers refuse it, so
 * nothing the table declares is silently left out of one server's list.
 */
public final class ToolTable {
    public static final String FORMAT = "tool-table/1";
    public static final String GUARDED = "guarded";
    public static final String UNGUARDED = "unguarded";
    static final String RESOURCE = "tools.json";
    private static final Set<String> MEMBERS = Set.of("name", "description", "inputSchema", "outputSchema");

    private final JsonNode root;

    private ToolTable(JsonNode root) {
        if (!FORMAT.equals(root.path("format").asText(null))) {
            throw new IllegalStateException("the tool table's format must be \"" + FORMAT + "\", not " + root.path("format"));
        }
        this.root = root;
    }

    /** The table shipped in this server's jar (or target/classes). */
    public static ToolTable shipped() {
        try (InputStream in = ToolTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not beside " + ToolTable.class.getName()
                        + "; the build copies it from vectors/rules/");
            }
            return of(ExactJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the tool table " + RESOURCE, e);
        }
    }

    public static ToolTable of(JsonNode root) {
        return new ToolTable(root);
    }

    /**
     * The SDK's declarations of {@code server}'s tools, in the table's order, keyed by name. The names must be exactly
     * {@code served}, the tools this server has handlers for: a table that renames, adds or drops one is refused.
     */
    public Map<String, McpSchema.Tool> declarations(String server, Set<String> served, McpJsonMapper mapper) {
        JsonNode tools = root.path(server);
        if (!tools.isArray()) {
            throw new IllegalStateException("the tool table has no \"" + server + "\" array");
        }
        Map<String, McpSchema.Tool> declared = new LinkedHashMap<>();
        for (JsonNode tool : tools) {
            for (Iterator<String> names = tool.fieldNames(); names.hasNext(); ) {
                String member = names.next();
                if (!MEMBERS.contains(member)) {
                    throw new IllegalStateException("the tool table's " + server + " tool " + tool.path("name")
                            + " has a member this server does not pass on: " + member);
                }
            }
            String name = text(tool, "name", server);
            McpSchema.Tool.Builder builder = McpSchema.Tool.builder(name, mapper, object(tool, "inputSchema", name).toString())
                    .description(text(tool, "description", name));
            if (tool.has("outputSchema")) {
                builder.outputSchema(mapper, object(tool, "outputSchema", name).toString());
            }
            if (declared.put(name, builder.build()) != null) {
                throw new IllegalStateException("the tool table declares " + name + " twice in " + server);
            }
        }
        if (!declared.keySet().equals(served)) {
            throw new IllegalStateException("the tool table's " + server + " tools are " + declared.keySet()
                    + ", but this server serves " + served);
        }
        return declared;
    }

    private static String text(JsonNode tool, String member, String where) {
        JsonNode value = tool.get(member);
        if (value == null || !value.isTextual() || value.textValue().isEmpty()) {
            throw new IllegalStateException("the tool table's " + where + " needs a non-empty string " + member);
        }
        return value.textValue();
    }

    private static JsonNode object(JsonNode tool, String member, String name) {
        JsonNode value = tool.get(member);
        if (value == null || !value.isObject()) {
            throw new IllegalStateException("the tool table's " + name + " needs an object " + member);
        }
        return value;
    }
}
