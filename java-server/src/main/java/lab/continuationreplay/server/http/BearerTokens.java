package lab.continuationreplay.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The principals an HTTP server accepts, each with its bearer token ({@code WIRE_BEARER_TOKENS_FILE}, a JSON object
 * principal → token). A token is a password: no message ever contains one, and lookups compare every token in
 * constant time so the answer's timing says nothing about how close a guess was.
 */
public final class BearerTokens {
    public static final String FILE = "WIRE_BEARER_TOKENS_FILE";
    public static final int MIN_TOKEN_CHARS = 32;

    private record Entry(String principal, byte[] token) {}

    private final List<Entry> entries;

    private BearerTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Reads the file named by {@link #FILE}; a message names the variable or the principal, never a token. */
    public static BearerTokens fromEnvironment(Map<String, String> environment) {
        String file = environment.get(FILE);
        if (file == null || file.isEmpty()) {
            throw new IllegalArgumentException(FILE + " is required with --http");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(Path.of(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(FILE + " cannot be read");
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(bytes);
        } catch (IOException e) {
            // Jackson's message may quote the file's content, a token among it.
            throw new IllegalArgumentException(FILE + " is not JSON");
        }
        return parse(root);
    }

    static BearerTokens parse(JsonNode root) {
        if (root == null || !root.isObject() || root.isEmpty()) {
            throw new IllegalArgumentException(FILE + " must be a non-empty JSON object principal -> token");
        }
        List<Entry> entries = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String principal = field.getKey();
            if (principal.isBlank()) {
                throw new IllegalArgumentException(FILE + ": a principal name is empty");
            }
            JsonNode token = field.getValue();
            if (!token.isTextual() || token.textValue().length() < MIN_TOKEN_CHARS) {
                throw new IllegalArgumentException(FILE + ": the token of principal '" + principal
                        + "' must be a string of at least " + MIN_TOKEN_CHARS + " characters");
            }
            if (!token.textValue().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                // An HTTP header cannot carry it verbatim, so no client could ever present it.
                throw new IllegalArgumentException(FILE + ": the token of principal '" + principal
                        + "' must be printable ASCII without spaces");
            }
            byte[] bytes = token.textValue().getBytes(StandardCharsets.US_ASCII);
            for (Entry other : entries) {
                if (MessageDigest.isEqual(other.token, bytes)) {
                    throw new IllegalArgumentException(FILE + ": principals '" + other.principal + "' and '" + principal
                            + "' share a token");
                }
            }
            entries.add(new Entry(principal, bytes));
        }
        return new BearerTokens(entries);
    }

    public List<String> principals() {
        return entries.stream().map(Entry::principal).toList();
    }

    /** The principal of an {@code Authorization} header value {@code Bearer <token>}, if the token is known. */
    public Optional<String> principalOf(String authorization) {
        if (authorization == null || authorization.length() < 7
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        byte[] presented = authorization.substring(7).trim().getBytes(StandardCharsets.US_ASCII);
        String found = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.token, presented)) {
                found = entry.principal;
            }
        }
        return Optional.ofNullable(found);
    }
}
