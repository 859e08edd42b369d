package lab.continuationreplay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is the lab's front door and the pages under docs/ are read by people new to it, so their prose stays
 * plain: no sentence over {@value #MAX_WORDS} words, and a README of at most {@value #README_MAX_LINES} lines.
 *
 * <p>Prose is what a reader reads as running text: paragraphs and list items. Tables, fenced code blocks, headings
 * and HTML comments are not prose. A sentence ends at {@code .}, {@code ?}, {@code !} or {@code ;} followed by a
 * space (or by the end of its paragraph or list item); words are separated by white space.
 */
class ProseSentencesTest {
    static final int MAX_WORDS = 60;
    static final int README_MAX_LINES = 150;

    /**
     * What under docs/ is not written by hand, and why. Each of these folders holds the evidence of one real run,
     * copied as the lab wrote it; its Markdown is a generated report, so a sentence there is the generator's.
     */
    static final Map<String, String> SKIPPED = Map.of(
            "docs/bench", "a full `lab bench` run as it wrote it: BENCH.md is the bench's generated report",
            "docs/faults-run", "a full `lab faults` run as it wrote it: FAULTS.md is the fault lab's generated report",
            "docs/faults-run-postgres",
            "a full `lab faults --ledger postgres` run as it wrote it: FAULTS.md is generated too");

    /**
     * The reports the lab's commands write, by name: skipped wherever a run's folder is copied under docs/, since
     * their text is the generator's. Today only BENCH.md and FAULTS.md are there, inside the folders above.
     */
    static final Map<String, String> GENERATED = Map.of(
            "BENCH.md", "written by lab bench",
            "FAULTS.md", "written by lab faults",
            "MATRIX.md", "written by lab matrix, one per SDK column",
            "COMPARISON.md", "written by lab matrix",
            "CLIENTS.md", "written by lab clients",
            "CONFORMANCE.md", "written by lab conformance");

    private static final Pattern LIST_ITEM = Pattern.compile("^\\s*(?:[-*+]|\\d+[.)])\\s+(.*)$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~).*$");

    record Sentence(int line, String text, int words) {
        String firstWords() {
            String[] all = text.split("\\s+");
            return String.join(" ", List.of(all).subList(0, Math.min(10, all.length))) + " …";
        }
    }

    @Test
    void theReadmeIsAFrontDoorOfAtMost150Lines() throws IOException {
        List<String> lines = Files.readAllLines(LabProcess.home().resolve("README.md"));
        assertTrue(lines.size() <= README_MAX_LINES,
                "README.md has " + lines.size() + " lines; at most " + README_MAX_LINES + " (move detail to docs/)");
    }

    @Test
    void noSentenceOfTheReadmeOrTheDocsRunsOver60Words() throws IOException {
        Path home = LabProcess.home();
        List<String> problems = new ArrayList<>();
        for (Path page : pages(home)) {
            for (Sentence sentence : sentences(Files.readAllLines(page))) {
                if (sentence.words() > MAX_WORDS) {
                    problems.add(home.relativize(page) + ":" + sentence.line() + ": " + sentence.words() + " words: "
                            + sentence.firstWords());
                }
            }
        }
        assertEquals(List.of(), problems, problems.size() + " sentences over " + MAX_WORDS
                + " words; split or tighten them:\n" + String.join("\n", problems));
    }

    @Test
    void theSkippedFoldersExistSoTheListStaysTrue() {
        Path home = LabProcess.home();
        for (String folder : SKIPPED.keySet()) {
            assertTrue(Files.isDirectory(home.resolve(folder)), folder + " is listed as skipped but is not there");
        }
    }

    @Test
    void theSplitterReadsProseOnly() {
        List<String> page = List.of(
                "# A heading that is long " + "word ".repeat(70),
                "",
                "One short sentence. Another; and a third? Yes!",
                "",
                "| a table row " + "cell ".repeat(70) + "|",
                "",
                "```",
                "code " + "word ".repeat(70),
                "```",
                "",
                "- a list item",
                "  that goes on. Then ends.",
                "- " + "word ".repeat(61).strip(),
                "",
                "<!-- a marker -->");
        List<Sentence> sentences = sentences(page);
        assertEquals(List.of("One short sentence.", "Another;", "and a third?", "Yes!", "a list item that goes on.",
                "Then ends.", "word ".repeat(61).strip()), sentences.stream().map(Sentence::text).toList());
        assertEquals(List.of(3, 3, 3, 3, 11, 12, 13), sentences.stream().map(Sentence::line).toList());
        assertEquals(61, sentences.get(6).words());
    }

    /** README.md and every Markdown page under docs/ but the skipped ones. */
    static List<Path> pages(Path home) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(home.resolve("README.md"));
        try (Stream<Path> files = Files.walk(home.resolve("docs"))) {
            files.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> !GENERATED.containsKey(file.getFileName().toString()))
                    .filter(file -> SKIPPED.keySet().stream().noneMatch(folder -> file.startsWith(home.resolve(folder))))
                    .sorted()
                    .forEach(pages::add);
        }
        return pages;
    }

    /** The sentences of a page's paragraphs and list items, each with the line it starts on. */
    static List<Sentence> sentences(List<String> lines) {
        List<Sentence> sentences = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        List<Integer> lineOf = new ArrayList<>();
        boolean inFence = false;
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index);
            String trimmed = line.strip();
            if (FENCE.matcher(line).matches()) {
                split(text, lineOf, sentences);
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("|") || trimmed.startsWith("<!--")) {
                split(text, lineOf, sentences);
                continue;
            }
            var item = LIST_ITEM.matcher(line);
            if (item.matches()) {
                split(text, lineOf, sentences);
                trimmed = item.group(1).strip();
            } else if (trimmed.startsWith(">")) {
                trimmed = trimmed.substring(1).strip();
            }
            if (!text.isEmpty()) {
                text.append(' ');
                lineOf.add(index + 1);
            }
            for (int i = 0; i < trimmed.length(); i++) {
                lineOf.add(index + 1);
            }
            text.append(trimmed);
        }
        split(text, lineOf, sentences);
        return sentences;
    }

    /** Splits one paragraph or list item at . ? ! ; followed by white space, then empties it. */
    private static void split(StringBuilder text, List<Integer> lineOf, List<Sentence> into) {
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            boolean end = i == text.length()
                    || (".?!;".indexOf(text.charAt(i)) >= 0 && i + 1 < text.length() && Character.isWhitespace(text.charAt(i + 1)));
            if (!end) {
                continue;
            }
            int stop = Math.min(i + 1, text.length());
            String sentence = text.substring(start, stop).strip();
            if (!sentence.isEmpty()) {
                int first = start;
                while (Character.isWhitespace(text.charAt(first))) {
                    first++;
                }
                into.add(new Sentence(lineOf.get(first), sentence, sentence.split("\\s+").length));
            }
            start = stop;
        }
        text.setLength(0);
        lineOf.clear();
    }
}
