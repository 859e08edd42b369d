package lab.continuationreplay.history.html;

import java.util.Locale;

/**
 * The start of every report page: one self-contained document (inline style, no scripts, no network assets). The
 * style lets every table shrink to the window: long words and code break anywhere rather than push a column past the
 * edge, because a report read on a laptop must not need sideways scrolling. It lives beside the evidence format
 * because every job's report uses it, the probe's too, and the probe's jar holds history but not the matrix.
 */
public final class HtmlPage {
    private HtmlPage() {}

    public static StringBuilder start(String title, String heading) {
        return new StringBuilder("""
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>%s</title>
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <style>
                body{font-family:system-ui,sans-serif;margin:2rem;color:#1b1b1b}
                table{border-collapse:collapse;margin:1rem 0;max-width:100%%}
                table.fit{width:100%%;table-layout:fixed}
                th,td{border:1px solid #bbb;padding:.3rem .5rem;vertical-align:top;font-size:.9rem;text-align:left}
                th{background:#eee}
                .yes{background:#e4f5e4}.no{background:#fbe0e0}.expected{background:#eceff4}.differs{background:#fff4cc}
                code{font-size:.8rem;white-space:pre-wrap;overflow-wrap:anywhere}
                details{margin:.2rem 0}summary{cursor:pointer;font-size:.85rem}
                .facts{font-size:.85rem;color:#333}
                .times{display:grid;grid-template-columns:max-content minmax(2rem,1fr) max-content;gap:.15rem .4rem;align-items:center;font-size:.8rem}
                .track{background:#d9d9d9;height:.6rem;border-radius:.15rem}
                .bar{display:block;background:#3d6fb4;height:100%%;border-radius:.15rem;min-width:1px}
                </style></head><body>
                <h1>%s</h1>
                """.formatted(escape(title), escape(heading)));
    }

    public static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /**
     * {@code text} escaped, with a break opportunity after each underscore: a case name such as
     * {@code twenty_identical_continuations_at_once} then wraps between its words in a narrow column, not mid-word.
     */
    public static String name(String text) {
        return escape(text).replace("_", "_<wbr>");
    }

    /**
     * A small horizontal bar for {@code ms} on a scale whose full width is {@code scaleMs}, as one row of a
     * {@code .times} grid: label, bar, value. Plain CSS widths, so the page stays script-free.
     */
    public static String timeRow(String label, Long ms, long scaleMs) {
        StringBuilder row = new StringBuilder("<span>").append(escape(label)).append("</span>");
        if (ms == null) {
            return row.append("<span></span><span>not recorded</span>").toString();
        }
        double percent = scaleMs > 0 ? Math.min(100, 100.0 * ms / scaleMs) : 0;
        return row.append("<span class=\"track\"><span class=\"bar\" style=\"width:")
                .append(String.format(Locale.ROOT, "%.1f", percent)).append("%\"></span></span><span>")
                .append(duration(ms)).append("</span>").toString();
    }

    /** {@code 850 ms}, {@code 2.3 s}: a reader compares bars, the number only confirms. */
    public static String duration(long ms) {
        return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
