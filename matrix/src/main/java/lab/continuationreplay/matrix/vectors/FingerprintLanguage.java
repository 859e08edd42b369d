package lab.continuationreplay.matrix.vectors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The four fingerprint implementations, one per language of the lab's SDK columns, in column order. */
public enum FingerprintLanguage {
    /** {@code lab.continuationreplay.vectors}, in this JVM (the same {@code FingerprintLines} as {@code lab fingerprint}). */
    JAVA("java"),
    /** {@code node ts-fixture/dist/fingerprint-cli.js}. */
    TYPESCRIPT("typescript"),
    /** {@code py-fixture/.venv/bin/python py-fixture/src/fingerprint-cli.py}. */
    PYTHON("python"),
    /** {@code go-fixture/target/bin/fingerprint-cli}. */
    GO("go");

    private final String label;

    FingerprintLanguage(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static List<String> labels() {
        return Arrays.stream(values()).map(FingerprintLanguage::label).toList();
    }

    public static FingerprintLanguage fromLabel(String label) {
        for (FingerprintLanguage language : values()) {
            if (language.label.equals(label)) {
                return language;
            }
        }
        throw new IllegalArgumentException("unknown language '" + label + "' (" + String.join(", ", labels()) + " or all)");
    }

    /**
     * The languages a comma-separated option names, in the order given; {@code all} means every language. An unknown
     * label, a repeated one or an empty list is refused by name, before anything runs.
     */
    public static List<FingerprintLanguage> parse(List<String> labels) {
        if (labels.isEmpty()) {
            throw new IllegalArgumentException("name at least one language (" + String.join(", ", labels()) + " or all)");
        }
        if (labels.contains("all")) {
            if (labels.size() > 1) {
                throw new IllegalArgumentException("'all' already names every language; name it alone");
            }
            return List.of(values());
        }
        List<FingerprintLanguage> chosen = new ArrayList<>();
        for (String label : labels) {
            FingerprintLanguage language = fromLabel(label.trim());
            if (chosen.contains(language)) {
                throw new IllegalArgumentException("'" + label + "' is named twice");
            }
            chosen.add(language);
        }
        return List.copyOf(chosen);
    }
}
