package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One benchmark's latency series as cumulative distributions in an inline SVG: x is milliseconds, y the share of
 * calls at or below it. The series come from the {@code cdf_ms} arrays {@link LatencyStats#toJson()} writes, so the
 * picture is drawn from bench.json alone, like every other part of the report.
 */
public final class CdfChart {
    /** One line of the chart: its JSON path under the benchmark's figures and its percentiles at the CDF levels. */
    public record Series(String label, List<Double> cdfMs) {
        public Series {
            cdfMs = List.copyOf(cdfMs);
        }
    }

    static final int WIDTH = 760;
    static final int PLOT_LEFT = 60;
    static final int PLOT_RIGHT = WIDTH - 20;
    static final int PLOT_TOP = 14;
    static final int PLOT_BOTTOM = 254;
    /** Below the plot: the x axis labels and title, then the legend, two entries a row. */
    private static final int LEGEND_TOP = 316;
    private static final int LEGEND_ROW = 20;

    /** Distinct on screen and in grey print: the Okabe–Ito palette (without its yellow) and four more. */
    private static final String[] COLOURS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
        "#8C564B", "#7F7F7F", "#17BECF", "#BCBD22"};
    /** When the colours run out, the next lap is dashed, so no two lines look alike. */
    private static final String[] DASHES = {"", "6 3", "2 3"};

    private CdfChart() {}

    /**
     * Every object under {@code figures} that has a {@code cdf_ms} array of the {@link LatencyStats#CDF_LEVELS}' length
     * and only finite positive-or-zero numbers, in document order, labelled by its path ({@code java_guarded.continuation}).
     */
    public static List<Series> find(JsonNode figures) {
        List<Series> series = new ArrayList<>();
        find("", figures, series);
        return series;
    }

    private static void find(String path, JsonNode node, List<Series> series) {
        if (!node.isObject()) {
            return;
        }
        JsonNode cdf = node.get("cdf_ms");
        if (cdf != null && cdf.isArray() && cdf.size() == LatencyStats.CDF_LEVELS.size()) {
            List<Double> values = new ArrayList<>();
            cdf.forEach(v -> values.add(v.isNumber() ? v.asDouble() : Double.NaN));
            if (values.stream().allMatch(v -> Double.isFinite(v) && v >= 0)) {
                series.add(new Series(path.isEmpty() ? "(figures)" : path, values));
            }
        }
        node.fields().forEachRemaining(e -> find(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(), series));
    }

    /** The chart, or an empty string for no series. {@code title} names the chart for screen readers. */
    public static String svg(String title, List<Series> series) {
        if (series.isEmpty()) {
            return "";
        }
        double min = series.stream().flatMap(s -> s.cdfMs().stream()).mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = series.stream().flatMap(s -> s.cdfMs().stream()).mapToDouble(Double::doubleValue).max().orElseThrow();
        Axis axis = Axis.of(min, max);
        int legendRows = (series.size() + 1) / 2;
        int height = LEGEND_TOP + legendRows * LEGEND_ROW + 6;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg class=\"cdf\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" width=\"").append(WIDTH).append("\" height=\"").append(height).append("\" role=\"img\" aria-label=\"")
                .append(BenchHtml.esc(title)).append("\" font-family=\"system-ui,sans-serif\" font-size=\"12\">\n<title>")
                .append(BenchHtml.esc(title)).append("</title>\n");
        // The grid and the y axis: 0 to 100 % of the calls.
        for (int percent = 0; percent <= 100; percent += 25) {
            String y = fmt(y(percent / 100.0));
            svg.append("<line x1=\"").append(PLOT_LEFT).append("\" x2=\"").append(PLOT_RIGHT).append("\" y1=\"").append(y)
                    .append("\" y2=\"").append(y).append("\" stroke=\"#ddd\"/>")
                    .append("<text x=\"").append(PLOT_LEFT - 6).append("\" y=\"").append(y).append("\" dy=\"4\" text-anchor=\"end\">")
                    .append(percent).append(" %</text>\n");
        }
        for (double tick : axis.ticks()) {
            String x = fmt(axis.x(tick));
            svg.append("<line x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"").append(PLOT_TOP).append("\" y2=\"")
                    .append(PLOT_BOTTOM + 4).append("\" stroke=\"#ddd\"/>")
                    .append("<text x=\"").append(x).append("\" y=\"").append(PLOT_BOTTOM + 18).append("\" text-anchor=\"middle\">")
                    .append(label(tick)).append("</text>\n");
        }
        svg.append("<rect x=\"").append(PLOT_LEFT).append("\" y=\"").append(PLOT_TOP).append("\" width=\"").append(PLOT_RIGHT - PLOT_LEFT)
                .append("\" height=\"").append(PLOT_BOTTOM - PLOT_TOP).append("\" fill=\"none\" stroke=\"#888\"/>\n");
        svg.append("<text x=\"").append((PLOT_LEFT + PLOT_RIGHT) / 2).append("\" y=\"").append(PLOT_BOTTOM + 36)
                .append("\" text-anchor=\"middle\">latency per call, ms").append(axis.log() ? " (log scale)" : "")
                .append("; a point at (x, y): y of the calls took x or less</text>\n");
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String colour = COLOURS[i % COLOURS.length];
            String dash = DASHES[(i / COLOURS.length) % DASHES.length];
            svg.append("<polyline class=\"series\" data-series=\"").append(BenchHtml.esc(s.label())).append("\" fill=\"none\" stroke=\"")
                    .append(colour).append("\" stroke-width=\"2\"").append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"")
                    .append(" points=\"");
            for (int k = 0; k < s.cdfMs().size(); k++) {
                svg.append(k == 0 ? "" : " ").append(fmt(axis.x(s.cdfMs().get(k)))).append(',')
                        .append(fmt(y(LatencyStats.CDF_LEVELS.get(k))));
            }
            svg.append("\"><title>").append(BenchHtml.esc(s.label())).append("</title></polyline>\n");
            int column = i % 2;
            int row = i / 2;
            int lx = PLOT_LEFT + column * (WIDTH - PLOT_LEFT) / 2;
            int ly = LEGEND_TOP + row * LEGEND_ROW;
            svg.append("<line x1=\"").append(lx).append("\" x2=\"").append(lx + 26).append("\" y1=\"").append(ly - 4).append("\" y2=\"")
                    .append(ly - 4).append("\" stroke=\"").append(colour).append("\" stroke-width=\"3\"")
                    .append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"").append("/>")
                    .append("<text class=\"legend\" x=\"").append(lx + 32).append("\" y=\"").append(ly).append("\">")
                    .append(BenchHtml.esc(s.label())).append("</text>\n");
        }
        return svg.append("</svg>\n").toString();
    }

    private static double y(double level) {
        return PLOT_BOTTOM - level * (PLOT_BOTTOM - PLOT_TOP);
    }

    /**
     * The x axis over [min, max]: logarithmic when the values span more than a factor of 10 (a spawned JVM per call
     * next to a kept process), else linear, so close series stay apart.
     */
    record Axis(boolean log, double from, double to) {
        static Axis of(double min, double max) {
            if (min > 0 && max / min > 10) {
                return new Axis(true, Math.log10(min) - 0.05, Math.log10(max) + 0.05);
            }
            double span = max - min;
            double pad = span > 0 ? span * 0.05 : Math.max(max * 0.1, 0.001);
            return new Axis(false, Math.max(0, min - pad), max + pad);
        }

        double x(double ms) {
            double v = log ? Math.log10(ms) : ms;
            return PLOT_LEFT + (v - from) / (to - from) * (PLOT_RIGHT - PLOT_LEFT);
        }

        /** Ticks at 1, 2 and 5 times a power of ten, at most about eight of them, all inside the axis. */
        List<Double> ticks() {
            double lo = log ? Math.pow(10, from) : from;
            double hi = log ? Math.pow(10, to) : to;
            List<Double> ticks = new ArrayList<>();
            if (log) {
                for (double decade = Math.pow(10, Math.floor(from)); decade <= hi; decade *= 10) {
                    for (double m : (to - from > 4 ? new double[] {1} : new double[] {1, 2, 5})) {
                        double t = decade * m;
                        if (t >= lo && t <= hi) {
                            ticks.add(t);
                        }
                    }
                }
                return ticks;
            }
            double raw = (hi - lo) / 6;
            double power = Math.pow(10, Math.floor(Math.log10(raw)));
            double step = raw / power <= 1 ? power : raw / power <= 2 ? 2 * power : raw / power <= 5 ? 5 * power : 10 * power;
            for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
                ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
            }
            return ticks;
        }
    }

    /** A tick's label: as few digits as the tick needs ({@code 0.05}, {@code 2}, {@code 1500}). */
    static String label(double ms) {
        return new java.math.BigDecimal(ms).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String fmt(double coordinate) {
        return String.format(Locale.ROOT, "%.1f", coordinate);
    }
}
