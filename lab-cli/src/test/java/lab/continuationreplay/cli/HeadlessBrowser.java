package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Opens a report page in Debian's headless {@code chromium} at a laptop's window size and reports what a reader would
 * meet: how wide the page is against the window, with its folded parts closed and opened, and how many elements match
 * each of the caller's selectors. The shipped pages carry no script, so the browser loads a copy with one small script
 * appended that writes those numbers into the DOM, and {@code --dump-dom} hands the DOM back.
 *
 * <p>The browser is the one {@link Chromium} finds, as {@code lab picture} uses. Without one the check is skipped on a
 * developer machine, but fails when {@code CI=true}, as the container tests do: CI must not pass a check it never ran
 * ({@code .ci/run} installs chromium).
 */
public final class HeadlessBrowser {
    public static final int WIDTH = 1400;
    public static final int HEIGHT = 900;
    private static final Pattern MEASURE = Pattern.compile("<pre id=\"lab-measure\">(.*?)</pre>", Pattern.DOTALL);

    /** The page's widths in CSS pixels and the count per selector name. */
    public record Page(int scrollWidth, int clientWidth, int scrollWidthOpened, Map<String, Integer> counts) {
        /** No sideways scrolling, neither as the page opens nor with every {@code <details>} unfolded. */
        public boolean fits() {
            return scrollWidth <= clientWidth && scrollWidthOpened <= clientWidth;
        }

        public int count(String name) {
            Integer count = counts.get(name);
            if (count == null) {
                throw new IllegalArgumentException("no selector named " + name);
            }
            return count;
        }
    }

    private HeadlessBrowser() {}

    /** The browser to run, or a skip (outside CI) or a failure (CI=true) when there is none. */
    public static Path chromium() {
        java.util.Optional<Path> found;
        try {
            found = Chromium.find(System::getenv);
        } catch (IllegalArgumentException e) {
            throw new AssertionError(e.getMessage());
        }
        if (found.isPresent()) {
            return found.get();
        }
        String how = "install Debian's chromium (apt-get install --no-install-recommends chromium; .ci/run does) or set LAB_CHROMIUM";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true but no chromium on the PATH, so the report pages cannot be opened; " + how);
        }
        System.err.println("SKIPPED browser check: no chromium on the PATH and LAB_CHROMIUM unset (in CI this fails); " + how);
        Assumptions.abort("no chromium on the PATH and LAB_CHROMIUM unset; " + how);
        throw new IllegalStateException("unreachable");
    }

    /**
     * Loads {@code page} at {@link #WIDTH} x {@link #HEIGHT} and measures it. {@code selectors} names CSS selectors
     * whose matches are counted, e.g. {@code "cases" -> "table.cases tr[data-case]"}.
     */
    public static Page open(Path page, Path scratch, Map<String, String> selectors) throws IOException, InterruptedException {
        Path browser = chromium();
        Files.createDirectories(scratch);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        int end = html.lastIndexOf("</body>");
        if (end < 0) {
            throw new AssertionError(page + " has no </body>");
        }
        Path copy = scratch.resolve("measured-" + page.getFileName());
        Files.writeString(copy, html.substring(0, end) + script(selectors) + html.substring(end), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions", "--user-data-dir=" + scratch.resolve("profile"),
                "--window-size=" + WIDTH + "," + HEIGHT, "--virtual-time-budget=2000", "--dump-dom", copy.toUri().toString()));
        Process process = new ProcessBuilder(command).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s on " + page);
        }
        String dom = out.join();
        Matcher measure = MEASURE.matcher(dom);
        if (!measure.find()) {
            throw new AssertionError("chromium (exit " + process.exitValue() + ") returned no measurement for " + page
                    + "; its stderr ends: " + tail(err.join()));
        }
        JsonNode json = new ObjectMapper().readTree(measure.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        selectors.keySet().forEach(name -> counts.put(name, json.path("counts").path(name).asInt(-1)));
        return new Page(json.path("scrollWidth").asInt(), json.path("clientWidth").asInt(), json.path("scrollWidthOpened").asInt(), counts);
    }

    private static String script(Map<String, String> selectors) throws IOException {
        String names = new ObjectMapper().writeValueAsString(selectors);
        // Measured at load, then again with every fold open; the result goes into an element appended last, so
        // writing it changes nothing that was measured.
        return "<script>addEventListener('load', function () {\n"
                + "  var root = document.documentElement, selectors = " + names.replace("</", "<\\/") + ", counts = {};\n"
                + "  for (var name in selectors) counts[name] = document.querySelectorAll(selectors[name]).length;\n"
                + "  var closed = root.scrollWidth;\n"
                + "  document.querySelectorAll('details').forEach(function (d) { d.open = true; });\n"
                + "  var result = {scrollWidth: closed, clientWidth: root.clientWidth, scrollWidthOpened: root.scrollWidth, counts: counts};\n"
                + "  var pre = document.createElement('pre'); pre.id = 'lab-measure'; pre.textContent = JSON.stringify(result);\n"
                + "  document.body.appendChild(pre);\n"
                + "});</script>\n";
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String tail(String text) {
        return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
    }
}
