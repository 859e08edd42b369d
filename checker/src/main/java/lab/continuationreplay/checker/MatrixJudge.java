package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;

/** An SDK's attempt (all twelve frozen cases) or a cross-SDK cell (case 09 across two servers, no one SDK's shapes). */
record MatrixJudge(String attemptName) implements Judge {
    private boolean cross() {
        return attemptName.startsWith(Layout.CROSS_PREFIX);
    }

    private Set<CaseId> allowed() {
        return cross() ? Set.of(CaseId.CRASH_AFTER_COMMIT) : Set.of(CaseId.values());
    }

    @Override
    public String caseId(JsonNode requested) {
        try {
            CaseId id = CaseId.of(requested.path("id").asText());
            boolean same = id.expected().equals(requested.path("expected").asText())
                    && id.seedName().equals(requested.path("name").asText());
            return same && allowed().contains(id) ? id.number() : null;
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    @Override
    public String refusal() {
        return "is not a frozen case" + (cross() ? " of a cross-SDK cell" : "");
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
        return CaseRecord.of(Cases.spec(CaseId.of(caseId)), attemptName, CaseFacts.read(folder), hashes, machineryError);
    }
}
