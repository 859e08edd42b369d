package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.ClientExpectedFailure;
import lab.continuationreplay.cases.clients.ClientTransport;
import lab.continuationreplay.cases.clients.Seen;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Judgement;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A client cell ({@code client-<client>-server-<server>}, over HTTP {@code client-<client>-server-<server>-http}):
 * each client case judged from its client records, its wire transcripts and its database against what the case
 * expects the application to see in this cell.
 */
record ClientJudge(String attemptName) implements Judge {
    private String client() {
        return attemptName.substring(Layout.CLIENT_PREFIX.length(), attemptName.indexOf("-server-"));
    }

    private String server() {
        String server = attemptName.substring(attemptName.indexOf("-server-") + "-server-".length());
        return transport() == ClientTransport.HTTP ? server.substring(0, server.length() - Layout.HTTP_SUFFIX.length()) : server;
    }

    ClientTransport transport() {
        return attemptName.endsWith(Layout.HTTP_SUFFIX) ? ClientTransport.HTTP : ClientTransport.STDIO;
    }

    /**
     * The cell as expectations name it: {@code typescript-client/java-server} over stdio,
     * {@code typescript-client/java-server/http} over HTTP.
     */
    String cell() {
        return ClientCase.cell(client(), server(), transport());
    }

    @Override
    public String caseId(JsonNode requested) {
        try {
            ClientCaseId id = ClientCaseId.of(requested.path("id").asText());
            return id.name().toLowerCase(Locale.ROOT).equals(requested.path("name").asText()) ? id.label() : null;
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    @Override
    public String refusal() {
        return "is not a client case";
    }

    @Override
    public int known() {
        return ClientCaseId.values().length;
    }

    @Override
    public Format format() {
        return Format.CLIENT_RESULTS;
    }

    @Override
    public ObjectNode record(String caseId, Path folder, Map<String, String> hashes, String machineryError) throws Exception {
        ClientCase spec = ClientCases.spec(ClientCaseId.of(caseId));
        List<JsonNode> records = clientRecords(folder);
        CaseFacts facts = CaseFacts.read(folder);
        List<String> violations = new ArrayList<>();
        ObjectNode record = Format.CLIENT_RESULTS.document();
        record.put("case_id", caseId);
        record.put("name", spec.id().name().toLowerCase(Locale.ROOT));
        record.put("cell", cell());
        record.put("client", client());
        record.put("server", server());
        record.put("transport", transport().label());
        record.set("artifact_hashes", ExactJson.mapper().valueToTree(new TreeMap<>(hashes)));
        record.set("steps", steps(records));
        for (ClientCase.Expectation expectation : spec.expectations()) {
            check(expectation, records, violations);
        }
        rows(record, spec, records, facts.db(), violations);
        ObjectNode starts = record.putObject("server_process_starts");
        facts.exits().stream().filter(e -> !e.name().equals("driver"))
                .forEach(e -> starts.put(e.name().split("~")[0], starts.path(e.name().split("~")[0]).asInt(0) + 1));
        record.set("process_exit_codes", ExactJson.mapper().valueToTree(facts.exits()));
        record.set("protocol_versions", ExactJson.mapper().valueToTree(facts.wire().protocolVersions()));
        for (WireFacts.NonFrame line : facts.wire().nonFrames()) {
            violations.add("server defect: process " + line.process() + " wrote a non-frame line to stdout: " + line.start());
        }
        CaseRecord.Status status = machineryError != null ? CaseRecord.Status.MACHINERY_ERROR
                : violations.isEmpty() ? CaseRecord.Status.PASS : CaseRecord.Status.FAIL;
        if (machineryError == null) {
            status = expectedFailure(record, spec, violations, status);
        }
        record.set("violations", ExactJson.mapper().valueToTree(violations));
        record.put("status", status.wire());
        if (machineryError != null) {
            record.put("machinery_error", machineryError);
        }
        return record;
    }

    /** The steps the application took, in the words it saw and showed; a step of another op only when it threw. */
    private ArrayNode steps(List<JsonNode> records) {
        ArrayNode steps = ExactJson.mapper().createArrayNode();
        for (JsonNode step : records) {
            String op = step.path("op").asText();
            if (!List.of("call", "call_once", "status").contains(op)) {
                if (step.path("outcome").asText().equals("threw")) {
                    steps.addObject().put("step", step.path("step").asText()).put("op", op)
                            .put("seen", ClientWords.seen(client(), transport(), op, step).toString()).put("shown", ClientWords.shown(step))
                            .put("message", step.path("threw").path("message").asText());
                }
                continue;
            }
            ObjectNode s = steps.addObject();
            s.put("step", step.path("step").asText());
            s.put("op", op);
            s.put("connection", step.path("connection").asText());
            s.put("seen", ClientWords.seen(client(), transport(), op, step).toString());
            s.put("shown", ClientWords.shown(step));
            if (step.path("outcome").asText().equals("threw")) {
                s.put("message", step.path("threw").path("message").asText());
            }
            s.put("elapsed_ms", step.path("elapsed_ms").asLong());
        }
        return steps;
    }

    /** The effects and operations the ledger holds against the case's spec, and whether the application recovered. */
    private void rows(ObjectNode record, ClientCase spec, List<JsonNode> records, DbFacts db, List<String> violations) {
        record.put("effects", db.issues().size());
        record.put("operations", db.operations().size());
        if (db.issues().size() != spec.effects()) {
            violations.add(db.issues().size() + " issues, expected " + spec.effects());
        }
        if (db.operations().size() > 1) {
            violations.add(db.operations().size() + " operations for one operation id");
        }
        Boolean recovered = spec.recovers() == null ? null : recovered(records, db);
        if (recovered == null) {
            record.putNull("recovered");
        } else {
            record.put("recovered", recovered);
            if (!recovered.equals(spec.recovers())) {
                violations.add("the application " + (recovered ? "recovered" : "did not recover") + " the stored result");
            }
        }
    }

    /** A cell the lab lists as an expected failure: the entry, and the status its violations give it. */
    private CaseRecord.Status expectedFailure(ObjectNode record, ClientCase spec, List<String> violations, CaseRecord.Status status) {
        java.util.Optional<ClientExpectedFailure> listed = ClientCases.expectedFailure(spec.id(), client(), server(), transport());
        if (listed.isEmpty()) {
            return status;
        }
        ClientExpectedFailure expected = listed.get();
        ObjectNode entry = record.putObject("expected_failure");
        entry.put("side", ClientExpectedFailure.SIDE);
        entry.put("reason", expected.reason());
        entry.put("sdk_location", expected.sdkLocation());
        entry.put("finding", expected.finding());
        entry.set("violations", ExactJson.mapper().valueToTree(expected.violations()));
        Listed listedAs = listed(violations, expected);
        if (listedAs.violation() != null) {
            violations.add(listedAs.violation());
        }
        return listedAs.status();
    }

    /** A listed cell's status, and the violation it adds (null: none). */
    record Listed(CaseRecord.Status status, String violation) {}

    /**
     * How a cell's {@code violations} stand against the expected failure that lists it: exactly the listed ones make
     * an expected failure; none means the SDK no longer fails (the list is stale: a failure); any other set is a
     * failure naming the entry.
     */
    static Listed listed(List<String> violations, ClientExpectedFailure expected) {
        Judgement judgement = Judgement.of(violations.isEmpty(), true);
        if (judgement == Judgement.NOW_PASSES) {
            return new Listed(CaseRecord.Status.NOW_PASSES, judgement.label() + " (" + expected.finding()
                    + "): the SDK no longer fails it; update that page and the list in ClientCases");
        }
        if (violations.equals(expected.violations())) {
            return new Listed(CaseRecord.Status.EXPECTED_FAILURE, null);
        }
        return new Listed(CaseRecord.Status.FAIL, "listed as an expected failure with exactly " + expected.violations()
                + " (" + expected.finding() + "), which is not what this cell shows");
    }

    private void check(ClientCase.Expectation expectation, List<JsonNode> records, List<String> violations) {
        if (expectation.step().endsWith(".*")) {
            String prefix = expectation.step().substring(0, expectation.step().length() - 1);
            List<String> seen = new ArrayList<>(records.stream().filter(r -> r.path("step").asText().startsWith(prefix))
                    .map(r -> ClientWords.seen(client(), transport(), r.path("op").asText(), r).toString()).sorted().toList());
            List<String> expected = new ArrayList<>(expectation.seen().stream().map(Seen::toString).sorted().toList());
            if (!seen.equals(expected)) {
                violations.add("steps " + expectation.step() + ": saw " + seen + ", expected " + expected + " in any order");
            }
            return;
        }
        JsonNode step = records.stream().filter(r -> r.path("step").asText().equals(expectation.step())).findFirst().orElse(null);
        Seen expected = expectation.forCell(cell());
        if (step == null) {
            violations.add("step " + expectation.step() + ": no client record, expected " + expected);
            return;
        }
        Seen seen = ClientWords.seen(client(), transport(), step.path("op").asText(), step);
        if (!seen.equals(expected)) {
            violations.add("step " + expectation.step() + " (" + step.path("op").asText() + "): saw " + seen + " ("
                    + ClientWords.shown(step) + "), expected " + expected);
        }
    }

    /** After the first reply that never came, did the application get the stored result (a status or a replay)? */
    private Boolean recovered(List<JsonNode> records, DbFacts db) {
        if (db.operations().size() != 1) {
            return false;
        }
        String stored = String.valueOf(db.operations().get(0).get("result"));
        boolean lost = false;
        for (JsonNode record : records) {
            Seen seen = List.of("call", "call_once", "status").contains(record.path("op").asText())
                    ? ClientWords.seen(client(), transport(), record.path("op").asText(), record) : null;
            if (seen == null) {
                continue;
            }
            if (seen.kind() == Seen.Kind.LOST || seen.kind() == Seen.Kind.TIMEOUT) {
                lost = true;
                continue;
            }
            JsonNode structured = record.path("result").path("structuredContent");
            if (lost && seen.kind() == Seen.Kind.STATUS && stored.equals(structured.path("storedResult").asText(null))) {
                return true;
            }
            if (lost && seen.kind() == Seen.Kind.REPLAYED && stored.equals(structured.path("result").asText(null))) {
                return true;
            }
        }
        return false;
    }

    /** Every client record of a case, each checked for its format first. */
    private static List<JsonNode> clientRecords(Path folder) throws java.io.IOException, FormatException {
        Path file = folder.resolve(Layout.CLIENT_RECORDS);
        String where = folder.getParent().getFileName() + "/" + folder.getFileName() + "/" + Layout.CLIENT_RECORDS;
        if (!Files.exists(file)) {
            throw new FormatException(where + " is missing");
        }
        List<JsonNode> records = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            records.add(Format.CLIENT_RECORD.read(lines.get(i), where + ": line " + (i + 1)));
        }
        return records;
    }
}
