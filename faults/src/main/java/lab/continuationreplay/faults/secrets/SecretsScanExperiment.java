package lab.continuationreplay.faults.secrets;

import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultKeys;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.MatrixAsProcess;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Runs a matrix, then scans every evidence file of this fault run (the matrix's transcripts, provenance, results
 * and reports, and what the other experiments wrote) for every key the lab used, in hex, base64 and raw form, and for
 * every bearer token of the run (over HTTP; the matrix run for the scan mints its own, which it never writes). Also
 * checks that each server refuses a key shorter than 32 bytes without echoing it.
 */
public final class SecretsScanExperiment implements FaultExperiment {
    private static final List<String> QUICK_CASES = List.of("03", "05");

    @Override
    public String name() {
        return "secrets";
    }

    @Override
    public String title() {
        return "no key in any evidence file (hex, base64, raw); keys under 32 bytes refused without echo";
    }

    @Override
    public java.util.Set<Transport> transports() {
        return java.util.Set.of(Transport.STDIO, Transport.HTTP);
    }

    @Override
    public boolean runsOnceAtTheEnd() {
        return true;
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        List<String> findings = new ArrayList<>();
        Path folder = session.folder(name());
        int matrixExit = runMatrix(session, folder.resolve("matrix"));
        if (matrixExit != 0) {
            findings.add("the matrix run for the scan exited " + matrixExit + " (see " + folder.resolve("matrix.stderr.log") + ")");
        }
        Map<String, byte[]> patterns = new LinkedHashMap<>();
        SecretForms.labKeysHex().forEach((key, hex) -> SecretForms.forms(hex).forEach((form, bytes) -> patterns.put(key + " as " + form, bytes)));
        // The run's bearer tokens, as sent in Authorization headers: the transcripts must name them by principal only.
        int tokens = 0;
        if (session.credentials() != null) {
            for (Map.Entry<String, String> token : session.credentials().principalsByToken().entrySet()) {
                patterns.put("bearer token of " + token.getValue(), token.getKey().getBytes(StandardCharsets.US_ASCII));
                tokens++;
            }
        }
        // On PostgreSQL, the ledger's password in every form too: the servers got its file's path, never the password.
        int ledgerPasswords = 0;
        if (session.ledger().postgres().isPresent()) {
            byte[] password = ledgerPassword(session.ledger().postgres().get().handedOn());
            patterns.put("ledger password", password);
            String text = new String(password, StandardCharsets.US_ASCII);
            if (text.matches("[0-9a-fA-F]{64,}") && text.length() % 2 == 0) {
                SecretForms.forms(text.toLowerCase(java.util.Locale.ROOT))
                        .forEach((form, bytes) -> patterns.put("ledger password's bytes as " + form, bytes));
            }
            ledgerPasswords++;
        }
        SecretScanner scanner = new SecretScanner(patterns);
        if (!scannerFindsACanary(scanner)) {
            findings.add("the scanner missed a planted canary; its silence proves nothing");
        }
        SecretScanner.Result result = scanner.scan(List.of(session.out()));
        result.hits().forEach(hit -> findings.add("found " + hit.pattern() + " in " + session.out().relativize(hit.file())));
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        figures.putObject("scan").put("files", result.files()).put("bytes", result.bytes()).put("keys", SecretForms.labKeysHex().size())
                .put("bearer_tokens", tokens).put("ledger_passwords", ledgerPasswords).put("patterns", patterns.size()).put("found", result.hits().size()).put("matrix_exit", matrixExit);
        for (ServerKind sdk : session.sdks()) {
            ObjectNode refusals = figures.putObject(sdk.label() + " short keys");
            for (String variable : List.of("WIRE_STATE_KEY_HEX", "WIRE_FINGERPRINT_KEY_HEX")) {
                String verdict = shortKeyRefused(session, sdk, variable, session.folder(name(), "short-keys", sdk.label()));
                refusals.put(variable, verdict);
                if (!verdict.startsWith("refused")) {
                    findings.add(sdk.label() + " " + variable + ": " + verdict);
                }
            }
        }
        return new ExperimentReport(name(), title(), findings.isEmpty(), figures, findings, 0);
    }

    /** The lab's own matrix, as a process, into the scanned folder (quick: the lost-reply and tamper cases). */
    private static int runMatrix(FaultSession session, Path out) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("--out", out.toString()));
        if (session.quick()) {
            arguments.addAll(List.of("--cases", String.join(",", QUICK_CASES)));
        }
        arguments.addAll(List.of("--sdk", String.join(",", session.sdks().stream().map(ServerKind::label).toList())));
        Map<String, String> environment = Map.of();
        if (session.ledger().postgres().isPresent()) {
            // the matrix's ledgers on this run's PostgreSQL (handed on as a given database), so its password is known
            arguments.addAll(List.of("--ledger", "postgres"));
            environment = session.ledger().postgres().get().handedOn();
        }
        // The matrix stays on stdio: over HTTP it mints tokens of its own that this run cannot look for, and the
        // fault lab's own HTTP experiments leave transcripts enough with this run's tokens to scan.
        return MatrixAsProcess.run(session.home(), List.of(), arguments, out.getParent().resolve("matrix.stdout.log"),
                out.getParent().resolve("matrix.stderr.log"), environment);
    }

    /** The password of the run's database, from the file or the variable the servers are given. */
    public static byte[] ledgerPassword(Map<String, String> handedOn) throws java.io.IOException {
        String file = handedOn.get(lab.continuationreplay.store.config.TrustedEnvironment.LEDGER_PASSWORD_FILE);
        String text = file != null ? Files.readString(Path.of(file), StandardCharsets.UTF_8)
                : handedOn.get(lab.continuationreplay.store.config.TrustedEnvironment.LEDGER_PASSWORD);
        if (text == null) {
            throw new IllegalStateException("the run's database was handed on without a password");
        }
        // a file's trailing line ends are not part of the password (TrustedEnvironment reads it so too)
        return text.replaceFirst("[\r\n]+$", "").getBytes(StandardCharsets.UTF_8);
    }

    private static boolean scannerFindsACanary(SecretScanner scanner) throws Exception {
        Path canary = Files.createTempDirectory("secrets-canary");
        try {
            byte[] key = SecretForms.forms(WireSettings.STATE_KEY_HEX).get("base64url unpadded");
            Files.write(canary.resolve("planted.log"), concat("a log line with ".getBytes(StandardCharsets.US_ASCII), key));
            return scanner.scan(List.of(canary)).hits().size() == 1;
        } finally {
            try (var files = Files.walk(canary)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static String shortKeyRefused(FaultSession session, ServerKind sdk, String variable, Path folder) throws Exception {
        String shortKey = FaultKeys.sha256Hex("fault lab: a key one byte short").substring(0, 62);
        Map<String, String> environment = session.ledger().environment(WireSettings.matrix(folder.resolve("store.sqlite3"), "alice"));
        environment.put(variable, shortKey);
        String name = variable.toLowerCase().replace('_', '-');
        Path stderr = folder.resolve(name + ".stderr.log");
        int exit;
        try (ServerProcess server = ServerProcess.start(sdk.command(session.home()), environment,
                folder.resolve(name + ".transcript.log"), stderr, ServerProcess.READ_TIMEOUT)) {
            exit = server.awaitExit(Duration.ofSeconds(30));
        }
        String diagnostics = Files.readString(stderr, StandardCharsets.UTF_8);
        if (exit == 0) {
            return "accepted (exit 0)";
        }
        if (diagnostics.contains(shortKey) || diagnostics.toLowerCase().contains(shortKey.substring(0, 16))) {
            return "refused but the key was echoed on stderr";
        }
        if (!diagnostics.contains(variable)) {
            return "refused (exit " + exit + ") without naming " + variable;
        }
        return "refused (exit " + exit + ")";
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = new byte[a.length + b.length];
        System.arraycopy(a, 0, joined, 0, a.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
