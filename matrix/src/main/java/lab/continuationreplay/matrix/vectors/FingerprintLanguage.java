package lab.continuationreplay.matrix.vectors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import lab.continuationreplay.history.Sdk;

/**
 * The four fingerprint implementations, one per SDK column ({@link Sdk}), in column order; each is named by its
 * column's label, so a fifth column's fingerprint is one more constant here.
 */
public enum FingerprintLanguage {
    /** {@code lab.continuationreplay.vectors}, in this JVM (the same {@code FingerprintLines} as {@code lab fingerprint}). */
    JAVA(Sdk.JAVA),
    /** {@code node ts-fixture/dist/fingerprint-cli.js}. */
    TYPESCRIPT(Sdk.TYPESCRIPT),
    /** {@code py-fixture/.venv/bin/python py-fixture/src/fingerprint-cli.py}. */
    PYTHON(Sdk.PYTHON),
    /** {@code go-fixture/target/bin/fingerprint-cli}. */
    GO(Sdk.GO),
    /** {@code rust-fixture/target/release/fingerprint-cli}. */
    RUST(Sdk.RUST);

    private final Sdk sdk;

    FingerprintLanguage(Sdk sdk) {
        this.sdk = sdk;
    }

    /** The SDK column whose language this is. */
    public Sdk sdk() {
        return sdk;
    }

    public String label() {
        return sdk.label();
    }

    public static List<String> labels() {
        return Arrays.stream(values()).map(FingerprintLanguage::label).toList();
    }

    public static FingerprintLanguage fromLabel(String label) {
        for (FingerprintLanguage language : values()) {
            if (language.label().equals(label)) {
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
