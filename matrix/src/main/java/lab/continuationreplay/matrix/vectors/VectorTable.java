package lab.continuationreplay.matrix.vectors;

import java.util.Locale;
import java.util.Map;

/** Plain-text rendering of a {@link VectorComparison.Report}: one column per language. */
public final class VectorTable {
    private VectorTable() {}

    public static String render(VectorComparison.Report report) {
        String nl = System.lineSeparator();
        int nameWidth = Math.max("vector".length(),
                report.rows().stream().mapToInt(r -> r.name().length()).max().orElse(0));
        StringBuilder out = new StringBuilder();
        out.append("fingerprint vectors, ").append(report.keyLabel()).append(", in ")
                .append(String.join(", ", report.languages())).append(nl);
        out.append(report.pinnedDigest() != null
                ? "agree: every language gives the digest the vector file expects" + nl
                : "agree: every language gives the same digest" + nl);
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s", "vector"));
        report.languages().forEach(l -> header.append("  ").append(String.format(Locale.ROOT, "%-64s", l)));
        out.append(header).append("  agree").append(nl);
        for (VectorComparison.Row row : report.rows()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s", row.name()));
            report.languages().forEach(l -> line.append("  ").append(String.format(Locale.ROOT, "%-64s", row.digests().get(l))));
            line.append("  ").append(row.agree() ? "yes" : "NO: " + String.join(", ", row.disagreeing()));
            out.append(line).append(nl);
        }
        boolean anyDisagreement = false;
        for (VectorComparison.Row row : report.rows()) {
            if (!row.agree() && row.expected() != null) {
                if (!anyDisagreement) {
                    out.append(nl).append("expected digests of the vectors that disagree:").append(nl);
                    anyDisagreement = true;
                }
                out.append(String.format(Locale.ROOT, "  %-" + nameWidth + "s  %s%n", row.name(), row.expected()));
            }
        }
        out.append(nl).append("relations the vectors promise:").append(nl);
        for (VectorComparison.Relation relation : report.relations()) {
            out.append(String.format(Locale.ROOT, "  %-60s %s%n", relation.describe(), verdicts(relation.holdsIn())));
        }
        if (report.pinnedDigest() != null) {
            out.append(String.format(Locale.ROOT, "  %-60s %s%n", VectorComparison.FIRST + " == pinned 8053811d…cd97",
                    verdicts(report.pinnedDigest())));
        }
        long relationsHolding = report.relations().stream().filter(VectorComparison.Relation::holds).count();
        out.append(nl)
                .append(String.format(Locale.ROOT, "%d/%d vectors agree, %d/%d relations hold: %s%n",
                        report.agreeing(), report.rows().size(), relationsHolding, report.relations().size(),
                        report.ok() ? "OK" : "FAILED"));
        return out.toString();
    }

    /** {@code java yes  typescript NO  …}: one verdict per language, in column order. */
    private static String verdicts(Map<String, Boolean> byLanguage) {
        StringBuilder out = new StringBuilder();
        byLanguage.forEach((language, holds) -> {
            if (!out.isEmpty()) {
                out.append("  ");
            }
            out.append(language).append(' ').append(String.format(Locale.ROOT, "%-3s", holds ? "yes" : "NO"));
        });
        return out.toString().stripTrailing();
    }
}
