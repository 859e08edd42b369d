package lab.continuationreplay.cases;

import java.util.Arrays;
import java.util.List;
import lab.continuationreplay.cases.frozen.Case01IdenticalRetry;
import lab.continuationreplay.cases.frozen.Case02NeverAdmitted;
import lab.continuationreplay.cases.frozen.Case03LostReplyThenExplicitReplay;
import lab.continuationreplay.cases.frozen.Case04ChangedInputResponses;
import lab.continuationreplay.cases.frozen.Case05ChangedRequestState;
import lab.continuationreplay.cases.frozen.Case06DifferentPrincipal;
import lab.continuationreplay.cases.frozen.Case07AuthorityExpires;
import lab.continuationreplay.cases.frozen.Case08ConcurrentAttempts;
import lab.continuationreplay.cases.frozen.Case09CrashAfterCommit;
import lab.continuationreplay.cases.frozen.Case10RetentionExpiry;
import lab.continuationreplay.cases.frozen.Case11RequestStateStripped;
import lab.continuationreplay.cases.frozen.Case12PartialEffect;

/** Every frozen case's spec. A new case is a {@link CaseId} constant and its file; the switch will not compile without it. */
public final class Cases {
    private Cases() {}

    public static CaseSpec spec(CaseId id) {
        return switch (id) {
            case IDENTICAL_RETRY -> Case01IdenticalRetry.SPEC;
            case NEVER_ADMITTED -> Case02NeverAdmitted.SPEC;
            case LOST_REPLY_THEN_EXPLICIT_REPLAY -> Case03LostReplyThenExplicitReplay.SPEC;
            case CHANGED_INPUT_RESPONSES -> Case04ChangedInputResponses.SPEC;
            case CHANGED_REQUEST_STATE -> Case05ChangedRequestState.SPEC;
            case DIFFERENT_PRINCIPAL -> Case06DifferentPrincipal.SPEC;
            case AUTHORITY_EXPIRES -> Case07AuthorityExpires.SPEC;
            case CONCURRENT_ATTEMPTS -> Case08ConcurrentAttempts.SPEC;
            case CRASH_AFTER_COMMIT -> Case09CrashAfterCommit.SPEC;
            case RETENTION_EXPIRY -> Case10RetentionExpiry.SPEC;
            case REQUEST_STATE_STRIPPED -> Case11RequestStateStripped.SPEC;
            case PARTIAL_EFFECT -> Case12PartialEffect.SPEC;
        };
    }

    /** All twelve, in case order. */
    public static List<CaseSpec> all() {
        return Arrays.stream(CaseId.values()).map(Cases::spec).toList();
    }

    /** The cross-SDK cell on case 09: commit on one SDK's server, recover through the other's. */
    public static CaseSpec acrossSdks(ServerChoice crashOn, ServerChoice recoverOn) {
        return Case09CrashAfterCommit.acrossSdks(crashOn, recoverOn);
    }
}
