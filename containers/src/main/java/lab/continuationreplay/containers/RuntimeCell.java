package lab.continuationreplay.containers;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cell of the runtime axis: the JDK that runs the lab, the Java server and the bridge, and the Node.js that runs
 * the TypeScript fixture and its fingerprint CLI. Its id ({@code jdk17-node20}) names the runner image built for it.
 */
public record RuntimeCell(int jdk, int node) {
    /** The axis the lab runs: {JDK 17, JDK 25} × {Node.js 20, Node.js 22}. */
    public static final List<RuntimeCell> ALL = List.of(new RuntimeCell(17, 20), new RuntimeCell(17, 22),
            new RuntimeCell(25, 20), new RuntimeCell(25, 22));

    private static final Pattern ID = Pattern.compile("jdk(\\d+)-node(\\d+)");

    public String id() {
        return "jdk" + jdk + "-node" + node;
    }

    public static RuntimeCell parse(String id) {
        Matcher m = ID.matcher(id.trim());
        RuntimeCell cell = m.matches() ? new RuntimeCell(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : null;
        if (cell == null || !ALL.contains(cell)) {
            throw new IllegalArgumentException("unknown runtime cell '" + id + "' (one of "
                    + String.join(", ", ALL.stream().map(RuntimeCell::id).toList()) + ", or all)");
        }
        return cell;
    }

    /** The cells named on the command line, in the axis' order; {@code all} (or nothing) means every cell. */
    public static List<RuntimeCell> parseAll(List<String> ids) {
        if (ids == null || ids.isEmpty() || ids.contains("all")) {
            return ALL;
        }
        List<RuntimeCell> named = new ArrayList<>();
        ids.forEach(id -> named.add(parse(id)));
        return ALL.stream().filter(named::contains).toList();
    }

    /** Whether the versions an attempt recorded in its provenance are this cell's, e.g. 17.0.15 and v20.20.2. */
    public boolean matches(String javaVersion, String nodeVersion) {
        String j = Integer.toString(jdk);
        boolean java = javaVersion != null && (javaVersion.equals(j) || javaVersion.startsWith(j + "."));
        boolean nodeOk = nodeVersion != null && nodeVersion.startsWith("v" + node + ".");
        return java && nodeOk;
    }

    @Override
    public String toString() {
        return id();
    }
}
