package lab.continuationreplay.cases;

/**
 * What names a case of the matrix: one of the twelve frozen cases ({@link CaseId}) or a case only HTTP can play
 * ({@link HttpCaseId}), or a cell of {@code lab replicas} ({@link ReplicaCaseId}). Evidence, folders and {@code --cases}
 * use {@link #number()}.
 */
public sealed interface CaseKey permits CaseId, HttpCaseId, ReplicaCaseId {
    /** What every case is called by: its number, its seed name and its expected classification. */
    record Label(String number, String seedName, String expected) {}

    Label label();

    /** {@code "01"}..{@code "12"}, {@code "h1"}.. for the HTTP cases, {@code "r1"}.. and {@code "x1"}.. for the replica cells. */
    default String number() {
        return label().number();
    }

    default String seedName() {
        return label().seedName();
    }

    /** The expected classification, e.g. {@code stored_result_one_effect}. */
    default String expected() {
        return label().expected();
    }

    /** The key among {@code keys} numbered {@code number}; else an IllegalArgumentException saying {@code refusal}. */
    static <K extends CaseKey> K byNumber(K[] keys, String number, String refusal) {
        return java.util.Arrays.stream(keys).filter(k -> k.number().equals(number)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(refusal));
    }

    /** The operation id the case's call carries: {@code case-01}. */
    default String operationId() {
        return "case-" + number();
    }

    /** The title the case's issue carries: {@code guarded-01}. */
    default String title() {
        return "guarded-" + number();
    }
}
