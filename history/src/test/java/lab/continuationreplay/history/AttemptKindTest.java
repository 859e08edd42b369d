package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each name a run gives an attempt folder reads as its kind, in one place; a name no run gives reads as none. */
class AttemptKindTest {
    @Test
    void everyNameTheRunnersGiveReadsAsItsKind() {
        assertEquals(Optional.of(AttemptKind.SDK), AttemptKind.of("java"));
        assertEquals(Optional.of(AttemptKind.SDK), AttemptKind.of("go-http"));
        assertEquals(Optional.of(AttemptKind.HTTP_CASES), AttemptKind.of("http-cases-python"));
        assertEquals(Optional.of(AttemptKind.CROSS), AttemptKind.of("cross-java-to-go"));
        assertEquals(Optional.of(AttemptKind.CLIENT), AttemptKind.of(Layout.clientCell("typescript", "java")));
        assertEquals(Optional.of(AttemptKind.REPLICAS), AttemptKind.of(Layout.REPLICAS_CROSS));
    }

    @Test
    void aNameNoRunGivesIsNoKindAndIsJudgedAsAnSdkColumn() {
        assertEquals(Optional.empty(), AttemptKind.of("csharp"));
        assertEquals(Optional.empty(), AttemptKind.of("controls"));
        assertEquals(AttemptKind.SDK, AttemptKind.judged("controls"));
    }

    @Test
    void theKindsComeInTheOrderTheCheckerListsThem() {
        assertEquals(List.of(AttemptKind.SDK, AttemptKind.HTTP_CASES, AttemptKind.CROSS, AttemptKind.CLIENT, AttemptKind.REPLICAS),
                List.of(AttemptKind.values()));
    }
}
