package lab.continuationreplay.history;

import java.util.Arrays;
import java.util.List;

/**
 * The SDK axis: each column of the lab in column order, the folder of its guarded server (or fixture), the folder of
 * its client driver, and the name prose calls it by. Every list of SDKs the lab prints or iterates (the matrix's
 * columns, the checker's folders, verify's message, the reports, the container images, conformance's servers) comes
 * from here, so adding a column is one row here plus its two folders and their start commands in {@code lab-core}'s
 * {@code ServerKind} and {@code ClientKind} (docs/adding-an-sdk.md).
 */
public enum Sdk {
    JAVA("java", "Java", "java-server", "java-client"),
    TYPESCRIPT("typescript", "TypeScript", "ts-fixture", "ts-client"),
    PYTHON("python", "Python", "py-fixture", "py-client"),
    GO("go", "Go", "go-fixture", "go-client"),
    RUST("rust", "Rust", "rust-fixture", "rust-client");

    private final String label;
    private final String displayName;
    private final String serverFolder;
    private final String clientFolder;

    Sdk(String label, String displayName, String serverFolder, String clientFolder) {
        this.label = label;
        this.displayName = displayName;
        this.serverFolder = serverFolder;
        this.clientFolder = clientFolder;
    }

    /** The column's label on the command line and in folder names ({@code java}, {@code typescript}, ...). */
    public String label() {
        return label;
    }

    /** How prose names it ({@code TypeScript}). */
    public String displayName() {
        return displayName;
    }

    /** The repository folder of its guarded server or fixture. */
    public String serverFolder() {
        return serverFolder;
    }

    /** The repository folder of its client driver. */
    public String clientFolder() {
        return clientFolder;
    }

    /** Every label, in column order. */
    public static List<String> labels() {
        return Arrays.stream(values()).map(Sdk::label).toList();
    }

    /** The labels as a sentence names them: {@code java, typescript, python or go}. */
    public static String listed() {
        List<String> labels = labels();
        return String.join(", ", labels.subList(0, labels.size() - 1)) + " or " + labels.get(labels.size() - 1);
    }

    /** The SDK of {@code label}; an unknown one is refused, naming every label. */
    public static Sdk fromLabel(String label) {
        return Arrays.stream(values()).filter(s -> s.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown SDK '" + label + "' (" + listed() + ")"));
    }
}
