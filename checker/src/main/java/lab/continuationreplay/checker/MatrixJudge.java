package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseKey;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.HttpCaseId;
import lab.continuationreplay.cases.http.HttpCases;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;

/**
 * An SDK's attempt over stdio or HTTP (all twelve frozen cases), a cross-SDK cell (case 09 across two servers, no one
 * SDK's shapes), or an SDK's HTTP-only cases ({@code http-cases-<sdk>}).
 */
record MatrixJudge(String attemptName) implements Judge {
    private boolean cross() {
        return attemptName.startsWith(Layout.CROSS_PREFIX);
    }

    private boolean httpCases() {
        return attemptName.startsWith(Layout.HTTP_CASES_PREFIX);
    }

    private Set<CaseKey> allowed() {
        if (httpCases()) {
            return Set.of(HttpCaseId.values());
        }
        return cross() ? Set.of(CaseId.CRASH_AFTER_COMMIT) : Set.of(CaseId.values());
    }

    private CaseKey key(String number) {
        return httpCases() ? HttpCaseId.of(number) : CaseId.of(number);
    }

    @Override
    public String caseId(JsonNode requested) {
        try {
            CaseKey id = key(requested.path("id").asText());
            boolean same = id.expected().equals(requested.path("expected").asText())
                    && id.seedName().equals(requested.path("name").asText());
            return same && allowed().contains(id) ? id.number() : null;
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    @Override
    public String refusal() {
        return httpCases() ? "is not an HTTP case" : "is not a frozen case" + (cross() ? " of a cross-SDK cell" : "");
    }

    @Override
    public int known() {
        return allowed().size();
    }

    @Override
    public Format format() {
        return Format.RESULTS;
    }

    @Override
    public ObjectNode record(String caseId, Path folder, Map<String, String> hashes, String machineryError) throws Exception {
        CaseSpec spec = key(caseId) instanceof HttpCaseId http ? HttpCases.spec(http) : Cases.spec((CaseId) key(caseId));
        return CaseRecord.of(spec, attemptName, CaseFacts.read(folder), hashes, machineryError);
    }
}
