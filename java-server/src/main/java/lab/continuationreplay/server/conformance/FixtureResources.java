package lab.continuationreplay.server.conformance;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncResource;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceTemplate;
import io.modelcontextprotocol.modern.server.feature.ResourceTemplatesPage;
import io.modelcontextprotocol.modern.server.feature.ResourcesFeature;
import io.modelcontextprotocol.modern.server.feature.ResourcesPage;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.server.wire.WireErrors;

/** The suite's resource fixtures: a text and a binary resource, one template, and a not-found error with the URI. */
final class FixtureResources {
    static final String STATIC_TEXT = "test://static-text";
    static final String STATIC_BINARY = "test://static-binary";
    static final String TEMPLATE = "test://template/{id}/data";
    private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([^/]+)/data");

    private FixtureResources() {}

    static ResourcesFeature feature(McpJsonMapper mapper) {
        McpSyncResourceRepository repository = new McpSyncResourceRepository() {
            @Override
            public ResourcesPage list(McpRequestContext context, String cursor) {
                return ResourcesPage.of(List.of(
                        McpSchema.Resource.builder(STATIC_TEXT, "static-text")
                                .description("Conformance fixture: a static text resource.").mimeType("text/plain").build(),
                        McpSchema.Resource.builder(STATIC_BINARY, "static-binary")
                                .description("Conformance fixture: a static PNG image.").mimeType("image/png").build()));
            }

            @Override
            public ResourceTemplatesPage listTemplates(McpRequestContext context, String cursor) {
                return ResourceTemplatesPage.of(List.of(McpSchema.ResourceTemplate.builder(TEMPLATE, "template-data")
                        .description("Conformance fixture: JSON data for any id.").mimeType("application/json").build()));
            }

            @Override
            public McpSyncResource find(McpRequestContext context, String uri) {
                // Every URI resolves here, so that an unknown one gets this fixture's not-found error (with the URI in
                // data, as SEP-2164 asks) rather than whatever the SDK would say.
                return McpSyncResource.of((ctx, request) -> McpSyncResponse.result(read(request.uri())));
            }

            @Override
            public McpSyncResourceTemplate findTemplate(McpRequestContext context, String uri) {
                return null;
            }
        };
        return ResourcesFeature.ofSync(repository, mapper, 0, McpSchema.CacheScope.PRIVATE);
    }

    static McpSchema.ReadResourceResult read(String uri) {
        McpSchema.ResourceContents contents;
        Matcher template = uri == null ? null : TEMPLATE_URI.matcher(uri);
        if (STATIC_TEXT.equals(uri)) {
            contents = new McpSchema.TextResourceContents(uri, "text/plain",
                    "This is the content of the static text resource.", null);
        } else if (STATIC_BINARY.equals(uri)) {
            contents = new McpSchema.BlobResourceContents(uri, "image/png", Media.PNG_BASE64, null);
        } else if (template != null && template.matches()) {
            String id = template.group(1);
            String json = "{\"id\":" + quoted(id) + ",\"templateTest\":true,\"data\":" + quoted("Data for ID: " + id) + "}";
            contents = new McpSchema.TextResourceContents(uri, "application/json", json, null);
        } else {
            throw new McpException(WireErrors.INVALID_PARAMS, "Resource not found", Map.of("uri", String.valueOf(uri)));
        }
        return McpSchema.ReadResourceResult.builder(List.of(contents)).ttlMs(0).cacheScope(McpSchema.CacheScope.PRIVATE)
                .build();
    }

    private static String quoted(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text).toString();
    }
}
