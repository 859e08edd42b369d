package lab.continuationreplay.matrix.report;

/** The start of every report page: one self-contained document (inline style, no scripts, no network assets). */
final class HtmlPage {
    private HtmlPage() {}

    static StringBuilder start(String title, String heading) {
        return new StringBuilder("""
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>%s</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:2rem;color:#1b1b1b}
                table{border-collapse:collapse;margin:1rem 0}
                th,td{border:1px solid #bbb;padding:.3rem .5rem;vertical-align:top;font-size:.9rem}
                th{background:#eee}
                .yes{background:#e4f5e4}.no{background:#fbe0e0}.differs{background:#fff4cc}
                code{font-size:.8rem;white-space:pre-wrap}
                </style></head><body>
                <h1>%s</h1>
                """.formatted(escape(title), escape(heading)));
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
