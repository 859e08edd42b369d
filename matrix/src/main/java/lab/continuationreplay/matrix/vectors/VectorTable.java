package lab.continuationreplay.matrix.vectors;

import java.util.Locale;

/** Plain-text rendering of a {@link VectorComparison.Report}. */
public final class VectorTable {
    private VectorTable() {}

    public static String render(VectorComparison.Report report) {
        int nameWidth = Math.max("vector".length(),
                report.rows().stream().mapToInt(r -> r.name().length()).max().orElse(0));
        int digestWidth = 64;
        String format = "%-" + nameWidth + "s  %-" + digestWidth + "s  %-" + digestWidth + "s  %s%n";
        StringBuilder out = new StringBuilder();
        out.append("fingerprint vectors, ").append(report.keyLabel()).append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, format, "vector", "java", "typescript", "agree"));
        for (VectorComparison.Row row : report.rows()) {
            out.append(String.format(Locale.ROOT, format, row.name(), row.java(), row.typescript(), row.agree() ? "yes" : "NO"));
        }
        out.append(System.lineSeparator()).append("relations the vectors promise:").append(System.lineSeparator());
        for (VectorComparison.Relation relation : report.relations()) {
            out.append(String.format(Locale.ROOT, "  %-60s java %-4s typescript %s%n",
                    relation.describe(), relation.holdsInJava() ? "yes" : "NO", relation.holdsInTypeScript() ? "yes" : "NO"));
        }
        if (report.pinnedDigestJava() != null) {
            out.append(String.format(Locale.ROOT, "  %-60s java %-4s typescript %s%n",
                    "00_control_single_round == pinned 8053811d…cd97",
                    report.pinnedDigestJava() ? "yes" : "NO", report.pinnedDigestTypeScript() ? "yes" : "NO"));
        }
        long relationsHolding = report.relations().stream().filter(VectorComparison.Relation::holds).count();
        out.append(System.lineSeparator())
                .append(String.format(Locale.ROOT, "%d/%d vectors agree, %d/%d relations hold: %s%n",
                        report.agreeing(), report.rows().size(), relationsHolding, report.relations().size(),
                        report.ok() ? "OK" : "FAILED"));
        return out.toString();
    }
}
