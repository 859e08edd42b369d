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
import lab.continuationreplay.cases.ReplicaCaseId;
import lab.continuationreplay.cases.replicas.ReplicaCases;
import lab.continuationreplay.cases.http.HttpCases;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.AttemptKind;
import lab.continuationreplay.history.Layout;

/**
 * An SDK's attempt over stdio or HTTP (all twelve frozen cases), a cross-SDK cell (case 09 across two servers, no one
 * SDK's shapes), an SDK's HTTP-only cases ({@code http-cases-<sdk>}), or the cells of {@code lab replicas}
 * ({@code replicas-<sdk>} within one SDK, {@code replicas-cross} across two).
 */
record MatrixJudge(String attemptName) implements Judge {
    private boolean cross() {
        return AttemptKind.judged(attemptName) == AttemptKind.CROSS;
    }

    private boolean httpCases() {
        return AttemptKind.judged(attemptName) == AttemptKind.HTTP_CASES;
    }

    private boolean replicas() {
        return AttemptKind.judged(attemptName) == AttemptKind.REPLICAS;
    }

    private Set<CaseKey> allowed() {
        if (httpCases()) {
            return Set.of(HttpCaseId.values());
        }
        if (replicas()) {
            boolean within = !attemptName.equals(Layout.REPLICAS_CROSS);
            return java.util.Arrays.stream(ReplicaCaseId.values()).filter(id -> id.withinOneSdk() == within)
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());
        }
        return cross() ? Set.of(CaseId.CRASH_AFTER_COMMIT) : Set.of(CaseId.values());
    }

    private CaseKey key(String number) {
        return httpCases() ? HttpCaseId.of(number) : replicas() ? ReplicaCaseId.of(number) : CaseId.of(number);
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
        if (replicas()) {
            return "is not a replica cell of " + attemptName;
        }
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
        CaseKey key = key(caseId);
        CaseSpec spec = key instanceof HttpCaseId http ? HttpCases.spec(http)
                : key instanceof ReplicaCaseId replica ? ReplicaCases.spec(replica) : Cases.spec((CaseId) key);
        return CaseRecord.of(spec, attemptName, CaseFacts.read(folder), hashes, machineryError);
    }
}
