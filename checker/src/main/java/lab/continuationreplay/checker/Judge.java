package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.AttemptKind;

/**
 * How one kind of attempt is judged: which requested cases it may hold, and the record a case's folder yields. An SDK
 * attempt and a cross-SDK cell hold frozen cases ({@link MatrixJudge}); a client cell holds client cases
 * ({@link ClientJudge}). Everything else (requested cases, the history's lines, hashes, the derived files) is
 * {@link AttemptCheck}'s, the same for every kind.
 */
interface Judge {
    /** The id of the case an entry of requested.json names, or null when this attempt may not hold it. */
    String caseId(JsonNode requested);

    /** Why a requested entry was refused, for the problem line. */
    String refusal();

    /** How many cases this kind of attempt holds at most (what an unreadable attempt counts as requested). */
    int known();

    /** The format of this kind's records. */
    Format format();

    /** The record of one case from its folder alone; its {@code status} is {@code pass}, {@code fail} or {@code machinery_error}. */
    ObjectNode record(String caseId, Path folder, Map<String, String> hashes, String machineryError) throws Exception;

    /** The judge for an attempt folder, by the kind its name says ({@link AttemptKind}). */
    static Judge of(String attemptName) {
        return AttemptKind.judged(attemptName) == AttemptKind.CLIENT ? new ClientJudge(attemptName) : new MatrixJudge(attemptName);
    }
}
