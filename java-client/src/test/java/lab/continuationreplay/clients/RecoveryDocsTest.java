package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/recovering-a-lost-reply.md shows code that runs: each code block that follows a
 * {@code <!-- snippet: PATH -->} line must equal the region of PATH between {@code // snippet:recover-lost-reply}
 * and {@code // end-snippet}, less the region's common indentation. Edit the example and the page together.
 */
class RecoveryDocsTest {
    static final String PAGE = "docs/recovering-a-lost-reply.md";
    static final List<String> EXAMPLES = List.of(
            "java-client/src/test/java/lab/continuationreplay/clients/RecoverLostReplyExampleIT.java",
            "ts-client/test/recover-lost-reply.example.test.ts");
    private static final Pattern BLOCK = Pattern.compile("<!-- snippet: (\\S+) -->\\n```[a-z]*\\n(.*?)```\\n", Pattern.DOTALL);

    @Test
    void everyCodeBlockOfThePageIsTheMarkedRegionOfItsExample() throws IOException {
        Map<String, String> blocks = blocks(read(PAGE));

        assertEquals(EXAMPLES, new ArrayList<>(blocks.keySet()), "the page shows the Java example, then the TypeScript one");
        for (Map.Entry<String, String> block : blocks.entrySet()) {
            assertEquals(region(read(block.getKey()), block.getKey()), block.getValue(),
                    PAGE + ": the block for " + block.getKey() + " differs from the file's marked region");
        }
    }

    @Test
    void aChangedLineIsCaught() throws IOException {
        String page = read(PAGE);
        String changed = page.replaceFirst("requestState\\(roundOne\\.requestState\\(\\)\\)", "requestState(null)");
        assertTrue(!changed.equals(page), "the page must hold the replayed state for this test to mean anything");
        String file = EXAMPLES.get(0);

        assertTrue(!region(read(file), file).equals(blocks(changed).get(file)));
    }

    /** The page's snippet blocks by the file they name, in page order. */
    static Map<String, String> blocks(String page) {
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher matcher = BLOCK.matcher(page);
        while (matcher.find()) {
            assertTrue(blocks.put(matcher.group(1), matcher.group(2)) == null, "two blocks for " + matcher.group(1));
        }
        return blocks;
    }

    /** The lines between the markers, their common indentation removed, each ending in a newline. */
    static String region(String source, String name) {
        List<String> lines = source.lines().toList();
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.equals("// snippet:recover-lost-reply")) {
                assertEquals(-1, start, name + ": two start markers");
                start = i + 1;
            } else if (line.equals("// end-snippet")) {
                assertEquals(-1, end, name + ": two end markers");
                end = i;
            }
        }
        assertTrue(start > 0 && end >= start, name + ": no marked region");
        List<String> region = lines.subList(start, end);
        int indent = region.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        region.forEach(l -> text.append(l.isBlank() ? "" : l.substring(indent)).append('\n'));
        return text.toString();
    }

    private static String read(String relative) throws IOException {
        String home = System.getProperty("lab.home");
        assertTrue(home != null, "lab.home is set by the pom");
        return Files.readString(Path.of(home).resolve(relative), StandardCharsets.UTF_8);
    }
}
