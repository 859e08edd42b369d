package lab.continuationreplay.checker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.ServerSetup;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * A client case's folder written by hand: the client records a driver would leave, how each process ended, a
 * transcript where a test needs one, and a ledger written by the real ledger code. Only what the checker reads is
 * written, so a test shows which evidence a verdict rests on.
 */
final class ClientCaseFolder {
    final Path folder;
    final List<String> records = new ArrayList<>();
    final Map<String, Integer> exits = new LinkedHashMap<>();
    final Map<String, List<String>> transcripts = new LinkedHashMap<>();

    ClientCaseFolder(Path attempt, String caseLabel) {
        this.folder = attempt.resolve("case-" + caseLabel);
        exits.put("driver", 0);
    }

    ClientCaseFolder exit(String process, Integer status) {
        exits.put(process, status);
        return this;
    }

    ClientCaseFolder record(String line) {
        records.add(line);
        return this;
    }

    /** Writes the records, processes.json and the transcripts; the ledger is written apart, by {@link #ledger}. */
    Path write() throws Exception {
        Files.createDirectories(folder);
        Files.write(folder.resolve("client.records.jsonl"), records);
        StringBuilder processes = new StringBuilder("{\"format\":\"processes/1\",\"processes\":[");
        exits.forEach((name, status) -> processes.append(processes.charAt(processes.length() - 1) == '[' ? "" : ",")
                .append("{\"name\":\"").append(name).append("\",\"exit_status\":").append(status).append('}'));
        Files.writeString(folder.resolve("processes.json"), processes.append("]}\n").toString());
        for (Map.Entry<String, List<String>> transcript : transcripts.entrySet()) {
            Files.write(folder.resolve(transcript.getKey() + ".transcript.log"), transcript.getValue());
        }
        return folder;
    }

    /** The case's operation applied once, as a guarded server applies it; returns the result the ledger stored. */
    String ledger(String operationId) throws Exception {
        Files.createDirectories(folder);
        String result;
        try (IssueLedger ledger = IssueLedger.open(folder.resolve("store.sqlite3"), ServerSetup.BACKEND)) {
            result = ledger.applyIssueOnce(ApplyRequest.unbounded(new OperationIdentity(operationId, CaseSpec.PRINCIPAL,
                    ServerSetup.BACKEND), "fp-" + operationId, "guarded-" + operationId, CaseSpec.BODY), FaultHook.NONE).result();
        }
        seal(folder.resolve("store.sqlite3"));
        return result;
    }

    /** An issue written past the guard, as the unguarded tool writes one. */
    void unguardedIssue(String title) throws Exception {
        Files.createDirectories(folder);
        try (IssueLedger ledger = IssueLedger.open(folder.resolve("store.sqlite3"), ServerSetup.BACKEND)) {
            ledger.createIssue(title, CaseSpec.BODY);
        }
        seal(folder.resolve("store.sqlite3"));
    }

    void sql(String statement) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("store.sqlite3"));
                Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }

    /**
     * Folds the write-ahead log into the file and leaves WAL, as the runner does before it hashes a case. A ledger
     * left in WAL gains -wal and -shm files when the checker opens it, and its hashes would no longer match.
     */
    static void seal(Path database) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
                Statement s = connection.createStatement()) {
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            s.execute("PRAGMA journal_mode=DELETE");
        }
    }

    // One client record per step, in the client-record/1 words a driver writes (docs/client-drivers.md).

    static String line(Object step, String op, String outcome, String result, String threw) {
        String id = step instanceof String s ? "\"" + s + "\"" : String.valueOf(step);
        return "{\"format\":\"client-record/1\",\"step\":" + id + ",\"op\":\"" + op + "\",\"connection\":\"a\",\"outcome\":\""
                + outcome + "\",\"result\":" + result + ",\"threw\":" + threw + ",\"elapsed_ms\":5}";
    }

    static String connected(int step) {
        return line(step, "connect", "connected", "null", "null");
    }

    static String roundOne(Object step) {
        return line(step, "call_once", "input_required", "{\"resultType\":\"input_required\"}", "null");
    }

    /** A continuation's complete result: the stored text, whether it is a replay, and the effect's state. */
    static String result(Object step, String stored, boolean replayed) {
        return line(step, "call_once", "result", "{\"resultType\":\"complete\",\"isError\":false,\"structuredContent\":"
                + "{\"result\":\"" + stored + "\",\"replayed\":" + replayed + ",\"state\":\"applied\"}}", "null");
    }

    /** A status read-back reporting {@code applied}; {@code stored} null leaves the stored result out. */
    static String status(Object step, String stored) {
        String storedResult = stored == null ? "" : ",\"storedResult\":\"" + stored + "\"";
        return line(step, "status", "result", "{\"resultType\":\"complete\",\"isError\":false,\"structuredContent\":"
                + "{\"state\":\"applied\"" + storedResult + "}}", "null");
    }

    static String threw(Object step, String op, String type, String code, String message) {
        return line(step, op, "threw", "null", "{\"type\":\"" + type + "\",\"code\":" + code + ",\"message\":\"" + message
                + "\",\"cause\":null}");
    }

    static String closed(int step) {
        return line(step, "close", "closed", "null", "null");
    }
}
