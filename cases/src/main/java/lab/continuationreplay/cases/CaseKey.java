package lab.continuationreplay.cases;

/**
 * What names a case of the matrix: one of the twelve frozen cases ({@link CaseId}) or a case only HTTP can play
 * ({@link HttpCaseId}), or a cell of {@code lab replicas} ({@link ReplicaCaseId}). Evidence, folders and {@code --cases}
 * use {@link #number()}.
 */
public sealed interface CaseKey permits CaseId, HttpCaseId, ReplicaCaseId {
    /** {@code "01"}..{@code "12"}, or {@code "h1"}.. for the HTTP cases. */
    String number();

    String seedName();

    /** The expected classification, e.g. {@code stored_result_one_effect}. */
    String expected();

    /** The operation id the case's call carries: {@code case-01}. */
    default String operationId() {
        return "case-" + number();
    }

    /** The title the case's issue carries: {@code guarded-01}. */
    default String title() {
        return "guarded-" + number();
    }
}
