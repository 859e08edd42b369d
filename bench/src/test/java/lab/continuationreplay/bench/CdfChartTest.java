package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CdfChartTest {
    private static final Pattern VIEW_BOX = Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"");
    private static final Pattern POLYLINE = Pattern.compile("<polyline[^>]*data-series=\"([^\"]*)\"[^>]*points=\"([^\"]*)\"");
    private static final Pattern X_TICK = Pattern.compile("text-anchor=\"middle\">([0-9.]+)</text>");

    private static LatencyStats series(long fromMicros, long toMicros) {
        long[] nanos = new long[100];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (fromMicros + (toMicros - fromMicros) * i / (nanos.length - 1)) * 1000;
        }
        return LatencyStats.of(nanos, 0);
    }

    /** Figures shaped like the guard-overhead benchmark's: series nested two deep, beside plain numbers. */
    private static ObjectNode guardFigures() {
        ObjectNode figures = JsonNodeFactory.instance.objectNode().put("timed_calls", 100);
        ObjectNode guarded = figures.putObject("java_guarded");
        guarded.set("continuation", series(900, 2_400).toJson());
        guarded.set("round_one", series(700, 1_900).toJson());
        figures.putObject("java_unguarded").set("continuation", series(800, 2_000).toJson());
        figures.putObject("typescript_fixture").set("continuation", series(1_100, 3_000).toJson());
        return figures;
    }

    private static ObjectNode report(ObjectNode guardFigures, ObjectNode bridgeFigures) {
        Map<String, BenchResult> results = new LinkedHashMap<>();
        for (String id : BenchReport.BENCHMARKS) {
            ObjectNode figures = switch (id) {
                case "guard_overhead" -> guardFigures;
                case "bridge_round_trip" -> bridgeFigures;
                default -> JsonNodeFactory.instance.objectNode().put("value_ms", 2.5);
            };
            results.put(id, new BenchResult(id, "Title " + id, "method", figures,
                    List.of(Goal.atMost(id + "_goal", "goal of " + id, "figure", 1, "baseline", 2, "ms", 1)), List.of()));
        }
        return BenchReport.of(true, "2026-12-02T00:00:00Z", 12.5, JsonNodeFactory.instance.objectNode().put("cores", 2), results, Map.of());
    }

    @Test
    void everySeriesIsFoundByItsPath() {
        List<String> labels = CdfChart.find(guardFigures()).stream().map(CdfChart.Series::label).toList();
        assertEquals(List.of("java_guarded.continuation", "java_guarded.round_one", "java_unguarded.continuation",
                "typescript_fixture.continuation"), labels);
        ObjectNode odd = JsonNodeFactory.instance.objectNode();
        odd.putObject("short").putArray("cdf_ms").add(1).add(2);
        odd.putObject("text").set("cdf_ms", JsonNodeFactory.instance.textNode("1, 2"));
        assertTrue(CdfChart.find(odd).isEmpty(), "only a cdf_ms of the known levels is drawn");
        assertEquals("", CdfChart.svg("none", List.of()));
    }

    @Test
    void theChartHasEveryLineInsideItsViewBoxAndNoNaN() {
        List<CdfChart.Series> series = CdfChart.find(guardFigures());
        String svg = CdfChart.svg("Latency distribution: 1. guard", series);
        assertFalse(svg.contains("NaN") || svg.contains("Infinity"), svg);
        Matcher box = VIEW_BOX.matcher(svg);
        assertTrue(box.find(), svg);
        double width = Double.parseDouble(box.group(1));
        double height = Double.parseDouble(box.group(2));
        Matcher line = POLYLINE.matcher(svg);
        List<String> drawn = new ArrayList<>();
        while (line.find()) {
            drawn.add(line.group(1));
            String[] points = line.group(2).split(" ");
            assertEquals(LatencyStats.CDF_LEVELS.size(), points.length, line.group(1));
            double previousY = Double.MAX_VALUE;
            for (String point : points) {
                String[] xy = point.split(",");
                double x = Double.parseDouble(xy[0]);
                double y = Double.parseDouble(xy[1]);
                assertTrue(x >= CdfChart.PLOT_LEFT && x <= CdfChart.PLOT_RIGHT && x <= width, point + " in " + line.group(1));
                assertTrue(y >= CdfChart.PLOT_TOP && y <= CdfChart.PLOT_BOTTOM && y <= height, point + " in " + line.group(1));
                assertTrue(y < previousY, "a CDF rises: " + line.group(2));
                previousY = y;
            }
        }
        assertEquals(series.stream().map(CdfChart.Series::label).toList(), drawn);
        for (CdfChart.Series s : series) {
            assertTrue(svg.contains("class=\"legend\"") && svg.contains(">" + s.label() + "</text>"), "legend of " + s.label());
        }
        for (String percent : List.of("0 %", "25 %", "50 %", "75 %", "100 %")) {
            assertTrue(svg.contains(">" + percent + "</text>"), percent);
        }
        Matcher tick = X_TICK.matcher(svg);
        int ticks = 0;
        while (tick.find()) {
            ticks++;
        }
        assertTrue(ticks >= 3, "the x axis has tick labels: " + svg);
        assertFalse(svg.contains("log scale"), "series within a factor of 10 share a linear axis");
    }

    @Test
    void seriesFarApartGetALogarithmicAxis() {
        ObjectNode bridge = JsonNodeFactory.instance.objectNode();
        bridge.set("persistent", series(200, 900).toJson());
        bridge.set("one_jvm_per_call", series(300_000, 700_000).toJson());
        String svg = CdfChart.svg("bridge", CdfChart.find(bridge));
        assertTrue(svg.contains("(log scale)"), svg);
        assertTrue(svg.contains(">1</text>") && svg.contains(">100</text>"), "decade ticks: " + svg);
        assertFalse(svg.contains("NaN"), svg);
    }

    @Test
    void oneSampleStillDrawsALine() {
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.set("single", LatencyStats.of(new long[] {1_000_000}, 0).toJson());
        String svg = CdfChart.svg("one", CdfChart.find(figures));
        assertTrue(svg.contains("data-series=\"single\""), svg);
        assertFalse(svg.contains("NaN") || svg.contains("Infinity"), svg);
    }

    @Test
    void thePageShowsGoalsThenChartsThenFoldedFigures() {
        ObjectNode bridge = JsonNodeFactory.instance.objectNode();
        bridge.set("persistent", series(200, 900).toJson());
        bridge.set("one_jvm_per_call", series(300_000, 700_000).toJson());
        String html = BenchHtml.render(report(guardFigures(), bridge));
        int goals = html.indexOf("<table class=\"goals\">");
        int firstChart = html.indexOf("<svg");
        int firstDetails = html.indexOf("<details>");
        assertTrue(goals > 0 && goals < firstChart && firstChart < firstDetails, "goals, then charts, then figures");
        assertEquals(BenchReport.BENCHMARKS.size(), html.split("<tr class=\"goal\">", -1).length - 1, "a row per goal");
        assertEquals(2, html.split("<svg", -1).length - 1, "one chart per benchmark with series");
        assertEquals(6, html.split("<polyline", -1).length - 1, "a line per series");
        assertEquals(BenchReport.BENCHMARKS.size(), html.split("<details>", -1).length - 1, "every benchmark's figures folded");
        assertTrue(html.contains("<code>java_guarded.continuation.cdf_ms</code>"), "a distribution is one raw figure");
        assertFalse(html.contains("<script") || html.contains("href=") || html.contains("src=") || html.contains("http://") || html.contains("https://"), html);
    }

    @Test
    void anInterleavedGoalShowsItsRoundsAndTheUnstableMark() {
        Map<String, BenchResult> results = new LinkedHashMap<>();
        for (String id : BenchReport.BENCHMARKS) {
            Goal goal = Goal.atMost(id + "_goal", "goal of " + id, "figure", 1, "baseline", 2, "ms", 1);
            results.put(id, new BenchResult(id, "Title " + id, "method", JsonNodeFactory.instance.objectNode(),
                    List.of(id.equals("guard_overhead") ? goal.withRounds(List.of(1.0, 1.1, 1.5)) : goal), List.of()));
        }
        String html = BenchHtml.render(BenchReport.of(false, "t", 1, JsonNodeFactory.instance.objectNode(), results, Map.of()));
        assertTrue(html.contains("median of 3 rounds (1, 1.1, 1.5), spread 45 %, <span class=\"unstable\">unstable</span>"), html);
    }
}
