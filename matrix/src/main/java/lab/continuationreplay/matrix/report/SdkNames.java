package lab.continuationreplay.matrix.report;

import java.util.ArrayList;
import java.util.List;

/** How the reports name the SDK columns of a comparison in prose: "Java SDK vs TypeScript SDK", "Java, TypeScript, Python and Go SDKs". */
final class SdkNames {
    private SdkNames() {}

    /** One column's name: its SDK's, with "over HTTP" for an {@code -http} column; an unknown label as it is. */
    static String of(String column) {
        boolean http = column.endsWith("-http");
        String sdk = http ? column.substring(0, column.length() - "-http".length()) : column;
        String name = java.util.Arrays.stream(lab.continuationreplay.history.Sdk.values()).filter(s -> s.label().equals(sdk))
                .map(lab.continuationreplay.history.Sdk::displayName).findFirst().orElse(sdk);
        return name + (http ? " over HTTP" : "");
    }

    /** The heading's subject for the columns of a run, in their order; repeated SDKs (stdio and HTTP) named once. */
    static String title(List<String> columns) {
        List<String> names = new ArrayList<>();
        for (String column : columns) {
            String name = of(column.endsWith("-http") ? column.substring(0, column.length() - "-http".length()) : column);
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return switch (names.size()) {
            case 0 -> "No SDK";
            case 1 -> names.get(0) + " SDK";
            case 2 -> names.get(0) + " SDK vs " + names.get(1) + " SDK";
            default -> String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1) + " SDKs";
        };
    }
}
