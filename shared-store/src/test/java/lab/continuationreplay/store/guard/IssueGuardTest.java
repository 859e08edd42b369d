package lab.continuationreplay.store.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.Issue;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.LedgerQueries;
import lab.continuationreplay.store.ledger.OperationAuthorityExpired;
import lab.continuationreplay.store.ledger.OperationConflict;
import lab.continuationreplay.store.ledger.OperationRecord;
import lab.continuationreplay.store.ledger.OperationState;
import lab.continuationreplay.store.readback.OperationStatus;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.LogicalRequest;
import lab.continuationreplay.vectors.RequestFingerprint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import lab.continuationreplay.store.ledger.LedgerKind;

/** The guard on each store: a SQLite file and a schema of the embedded PostgreSQL. */
@ParameterizedClass(name = "{0}")
@EnumSource(LedgerKind.class)
class IssueGuardTest {
    private static final String BACKEND = "sqlite:guarded-matrix";
    private static final long NOW = 1_790_035_200L;
    private static final String KEY_HEX = "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba";
    private static final FingerprintKey KEY = FingerprintKey.fromHex(KEY_HEX, "WIRE_FINGERPRINT_KEY_HEX");
    private static final String CONFLICT =
            "operation_id is already bound to a different principal, backend, or request fingerprint";

    @Parameter
    LedgerKind kind;
    @TempDir
    Path dir;
    private IssueLedger ledger;

    @BeforeEach
    void openLedger() throws Exception {
        ledger = IssueLedger.open(kind.fresh(dir), BACKEND);
    }

    @AfterEach
    void closeLedger() throws Exception {
        ledger.close();
    }

    private IssueGuard guard(String principal, long now) {
        return new IssueGuard(new GuardConfig(principal, BACKEND, now, 300, 360, KEY), ledger, FaultHook.NONE);
    }

    private IssueGuard alice() {
        return guard("alice", NOW);
    }

    private static JsonNode accepted(String body) {
        return ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"" + body + "\"}}}");
    }

    private static GuardedIssueArguments case01() {
        return GuardedIssueArguments.of("case-01", "guarded-01", null);
    }

    @Test
    void isContinuationDecidesTheRound() {
        assertFalse(IssueGuard.isContinuation(false, false));
        assertTrue(IssueGuard.isContinuation(true, true));
        InvalidApplicationRequest stateOnly = assertThrows(InvalidApplicationRequest.class,
                () -> IssueGuard.isContinuation(true, false));
        assertEquals("requestState without input responses", stateOnly.getMessage());
        InvalidApplicationRequest responsesOnly = assertThrows(InvalidApplicationRequest.class,
                () -> IssueGuard.isContinuation(false, true));
        assertEquals("unsupported continuation: input responses require requestState", responsesOnly.getMessage());
    }

    @Test
    void mintUsesTheConfiguredClockAndTtls() {
        ContinuationState state = alice().mint(case01());
        assertEquals("case-01", state.operationId());
        assertEquals(NOW, state.issuedAt());
        assertEquals(NOW + 300, state.authorityExpiresAt());
        assertEquals(NOW + 360, state.replayExpiresAt());
        assertTrue(state.nonce().matches("[0-9a-f]{32}"), state.nonce());
        assertNotEquals(state.nonce(), alice().mint(case01()).nonce());
    }

    @Test
    void mintWritesNothing() throws Exception {
        alice().mint(case01());
        assertEquals(0, queries().operationCount());
        assertEquals(0, queries().issueCount());
    }

    @Test
    void appliesOnceThenReplays() throws Exception {
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(case01());
        GuardedIssueResult first = guard.apply(case01(), state.toJson(), accepted("alpha"));
        assertEquals(new GuardedIssueResult("case-01", 1, "created 1", false, OperationState.APPLIED), first);
        assertEquals("{\"operationId\":\"case-01\",\"effectId\":1,\"result\":\"created 1\",\"replayed\":false,\"state\":\"applied\"}",
                ExactJson.mapper().writeValueAsString(first.toJson()));
        assertEquals(List.of("operationId", "effectId", "result", "replayed", "state"), fieldNames(first.toJson()));
        assertEquals(Optional.of(new Issue(1, "guarded-01", "alpha")), ledger.issue(1));

        GuardedIssueResult again = guard.apply(case01(), state.toJson(), accepted("alpha"));
        assertEquals(new GuardedIssueResult("case-01", 1, "created 1", true, OperationState.APPLIED), again);
        assertEquals(1, queries().issueCount());
        assertEquals(1, queries().operationCount());

        OperationRecord record = ledger.operationRecord(new OperationIdentity("case-01", "alice", BACKEND)).orElseThrow();
        assertEquals(guard.fingerprint(case01(), state, "alpha"), record.requestFingerprint());
        assertEquals(OperationState.APPLIED, record.state());
        assertEquals(1_790_035_200.0, record.issuedAt());
        assertEquals(1_790_035_500.0, record.authorityExpiresAt());
        assertEquals(1_790_035_560.0, record.replayExpiresAt());
    }

    @Test
    void aReplayLaterInTheAuthorityWindowStillReplays() throws Exception {
        ContinuationState state = alice().mint(case01());
        alice().apply(case01(), state.toJson(), accepted("alpha"));
        assertEquals(new GuardedIssueResult("case-01", 1, "created 1", true, OperationState.APPLIED),
                guard("alice", NOW + 299).apply(case01(), state.toJson(), accepted("alpha")));
    }

    @Test
    void theStateMayArriveWithNullMeta() throws Exception {
        ContinuationState state = alice().mint(case01());
        GuardedIssueResult first = alice().apply(case01(), state.toJson(), accepted("alpha"));
        JsonNode withNullMeta = ExactJson.parse(
                "{\"body\":{\"_meta\":null,\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}");
        GuardedIssueResult again = alice().apply(case01(), state.toJson(), withNullMeta);
        assertEquals(first.effectId(), again.effectId());
        assertTrue(again.replayed());
    }

    private static List<String> fieldNames(ObjectNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aChangedBodyConflicts() throws Exception {
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(case01());
        guard.apply(case01(), state.toJson(), accepted("alpha"));
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> guard.apply(case01(), state.toJson(), accepted("beta")));
        assertEquals("operation_conflict", e.wireCode());
        assertEquals(CONFLICT, e.getMessage());
        assertEquals(1, queries().issueCount());
        assertEquals(1, queries().operationCount());
    }

    @Test
    void aChangedTitleOrModeConflicts() throws Exception {
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(case01());
        guard.apply(case01(), state.toJson(), accepted("alpha"));
        assertThrows(OperationConflict.class, () -> guard.apply(
                GuardedIssueArguments.of("case-01", "guarded-01b", null), state.toJson(), accepted("alpha")));
        assertThrows(OperationConflict.class, () -> guard.apply(
                GuardedIssueArguments.of("case-01", "guarded-01", "partial"), state.toJson(), accepted("alpha")));
        assertEquals(1, queries().issueCount());
    }

    @Test
    void aSecondMintedStateIsADifferentOperation() throws Exception {
        IssueGuard guard = alice();
        ContinuationState first = guard.mint(case01());
        ContinuationState second = guard.mint(case01());
        guard.apply(case01(), first.toJson(), accepted("alpha"));
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> guard.apply(case01(), second.toJson(), accepted("alpha")));
        assertEquals("operation_conflict", e.wireCode());
        assertEquals(1, queries().issueCount());
    }

    @Test
    void anotherPrincipalOnTheSameLedgerConflicts() throws Exception {
        ContinuationState state = alice().mint(case01());
        alice().apply(case01(), state.toJson(), accepted("alpha"));
        OperationConflict e = assertThrows(OperationConflict.class,
                () -> guard("bob", NOW).apply(case01(), state.toJson(), accepted("alpha")));
        assertEquals(CONFLICT, e.getMessage());
        assertEquals(1, queries().issueCount());
        assertEquals(1, queries().operationCount());
    }

    @Test
    void partialModeRecordsThePartialEffect() throws Exception {
        GuardedIssueArguments arguments = GuardedIssueArguments.of("case-12", "guarded-12", "partial");
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(arguments);
        assertEquals(new GuardedIssueResult("case-12", 1, "partial 1; watcher failed; rollback failed", false, OperationState.PARTIAL),
                guard.apply(arguments, state.toJson(), accepted("alpha")));
        assertEquals(new GuardedIssueResult("case-12", 1, "partial 1; watcher failed; rollback failed", true, OperationState.PARTIAL),
                guard.apply(arguments, state.toJson(), accepted("alpha")));
        assertEquals(1, queries().issueCount());
        assertEquals(List.of(), queries().watchersFor(1));
    }

    @Test
    void aLoneSurrogateInTheTitleIsRefusedBeforeAnyEffect() throws Exception {
        GuardedIssueArguments arguments = GuardedIssueArguments.of("case-01", "bad\ud800", null);
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(arguments);
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> guard.apply(arguments, state.toJson(), accepted("alpha")));
        assertEquals("$.arguments.title: unpaired UTF-16 surrogate is not valid Unicode", e.getMessage());
        assertEquals(0, queries().issueCount());
        assertEquals(0, queries().operationCount());
    }

    @Test
    void aLoneSurrogateInTheBodyIsRefusedBeforeAnyEffect() throws Exception {
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(case01());
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> guard.apply(case01(), state.toJson(), InputResponses.normalised("x\udc00")));
        assertEquals("$.input_responses.body.content.body: unpaired UTF-16 surrogate is not valid Unicode", e.getMessage());
        assertEquals(0, queries().issueCount());
        assertEquals(0, queries().operationCount());
    }

    @Test
    void anInvalidStateOrResponseWritesNothing() throws Exception {
        IssueGuard guard = alice();
        ContinuationState other = guard.mint(GuardedIssueArguments.of("case-02", "guarded-02", null));
        InvalidApplicationRequest binding = assertThrows(InvalidApplicationRequest.class,
                () -> guard.apply(case01(), other.toJson(), accepted("alpha")));
        assertEquals("requestState operation binding mismatch", binding.getMessage());
        ContinuationState state = guard.mint(case01());
        InvalidApplicationRequest declined = assertThrows(InvalidApplicationRequest.class, () -> guard.apply(case01(),
                state.toJson(), ExactJson.parse("{\"body\":{\"action\":\"decline\"}}")));
        assertEquals("body response must be accepted text", declined.getMessage());
        InvalidApplicationRequest future = assertThrows(InvalidApplicationRequest.class,
                () -> guard("alice", NOW - 1).apply(case01(), state.toJson(), accepted("alpha")));
        assertEquals("requestState issued_at is in the future", future.getMessage());
        assertEquals(0, queries().issueCount());
        assertEquals(0, queries().operationCount());
    }

    @Test
    void theStateIsCheckedBeforeTheResponses() {
        IssueGuard guard = alice();
        InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class,
                () -> guard.apply(case01(), ExactJson.parse("{}"), ExactJson.parse("{}")));
        assertEquals("requestState operation binding mismatch", e.getMessage());
    }

    @Test
    void anExpiredAuthorityRefusesANewOperation() throws Exception {
        ContinuationState state = alice().mint(case01());
        OperationAuthorityExpired e = assertThrows(OperationAuthorityExpired.class,
                () -> guard("alice", NOW + 300).apply(case01(), state.toJson(), accepted("alpha")));
        assertEquals("operation_authority_expired", e.wireCode());
        assertEquals(0, queries().issueCount());
        assertEquals(0, queries().operationCount());
        assertEquals(new GuardedIssueResult("case-01", 1, "created 1", false, OperationState.APPLIED),
                guard("alice", NOW + 299).apply(case01(), state.toJson(), accepted("alpha")));
    }

    @Test
    void anExpiredAuthorityRefusesAReplay() throws Exception {
        ContinuationState state = alice().mint(case01());
        alice().apply(case01(), state.toJson(), accepted("alpha"));
        OperationAuthorityExpired e = assertThrows(OperationAuthorityExpired.class,
                () -> guard("alice", NOW + 300).apply(case01(), state.toJson(), accepted("alpha")));
        assertEquals("operation_authority_expired", e.wireCode());
        assertEquals(1, queries().issueCount());
    }

    private static String independentDigest(String principal, String argumentsJson, String stateText, String body) {
        return new RequestFingerprint(KEY).digest(new LogicalRequest(principal, "create_guarded_issue", "1",
                (ObjectNode) ExactJson.parse(argumentsJson), TextNode.valueOf(stateText),
                ExactJson.parse("{\"body\":{\"_meta\":null,\"action\":\"accept\",\"content\":{\"body\":\"" + body + "\"}}}")));
    }

    private static String stateText(ContinuationState state) {
        return "{\"authority_expires_at\":" + state.authorityExpiresAt() + ",\"issued_at\":" + state.issuedAt()
                + ",\"nonce\":\"" + state.nonce() + "\",\"operation_id\":\"" + state.operationId()
                + "\",\"replay_expires_at\":" + state.replayExpiresAt() + ",\"v\":1}";
    }

    @Test
    void fingerprintFollowsSpecSection2_10() {
        IssueGuard guard = alice();
        ContinuationState state = guard.mint(case01());
        String expected = independentDigest("alice", "{\"operation_id\":\"case-01\",\"title\":\"guarded-01\",\"mode\":\"atomic\"}",
                stateText(state), "alpha");
        assertEquals(expected, guard.fingerprint(case01(), state, "alpha"));
        assertTrue(expected.matches("[0-9a-f]{64}"), expected);
    }

    @Test
    void fingerprintOfTheSpecsTypeScriptCase05State() {
        ContinuationState state = new ContinuationState("case-05", "661eed17995cd1b77e6812a2fd567408",
                1_790_035_200L, 1_790_035_500L, 1_790_035_560L);
        String stateText = "{\"authority_expires_at\":1790035500,\"issued_at\":1790035200,"
                + "\"nonce\":\"661eed17995cd1b77e6812a2fd567408\",\"operation_id\":\"case-05\","
                + "\"replay_expires_at\":1790035560,\"v\":1}";
        GuardedIssueArguments arguments = GuardedIssueArguments.of("case-05", "guarded-05", null);
        assertEquals(independentDigest("alice", "{\"operation_id\":\"case-05\",\"title\":\"guarded-05\",\"mode\":\"atomic\"}",
                stateText, "alpha"), alice().fingerprint(arguments, state, "alpha"));
        assertEquals(fromScratch("alice", "case-05", "guarded-05", "atomic", stateText, "alpha"),
                alice().fingerprint(arguments, state, "alpha"));
    }

    /**
     * The fingerprint built from the spec's recipe with nothing but the JDK: HMAC over field, NUL and canonical value
     * for the opaque fields, then SHA-256 of the canonical payload (values here are plain ASCII).
     */
    private static String fromScratch(String principal, String operationId, String title, String mode, String stateText,
            String body) {
        String canonicalState = "\"" + stateText.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        String canonicalResponses = "{\"body\":{\"_meta\":null,\"action\":\"accept\",\"content\":{\"body\":\"" + body + "\"}}}";
        String payload = "{\"arguments\":{\"mode\":\"" + mode + "\",\"operation_id\":\"" + operationId + "\",\"title\":\""
                + title + "\"},\"continuation_state\":\"" + hmac("continuation_state", canonicalState)
                + "\",\"input_responses\":\"" + hmac("input_responses", canonicalResponses) + "\",\"principal\":\""
                + principal + "\",\"tool_id\":\"create_guarded_issue\",\"tool_version\":\"1\"}";
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String hmac(String field, String canonical) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HexFormat.of().parseHex(KEY_HEX), "HmacSHA256"));
            mac.update(field.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void fingerprintMatchesTheRecipeBuiltFromScratch() {
        ContinuationState state = alice().mint(case01());
        assertEquals(fromScratch("alice", "case-01", "guarded-01", "atomic", stateText(state), "alpha"),
                alice().fingerprint(case01(), state, "alpha"));
    }

    @Test
    void fingerprintChangesWithEveryBoundComponent() {
        ContinuationState state = alice().mint(case01());
        ContinuationState otherNonce = new ContinuationState("case-01", "0".repeat(32), state.issuedAt(),
                state.authorityExpiresAt(), state.replayExpiresAt());
        ContinuationState otherDeadline = new ContinuationState("case-01", state.nonce(), state.issuedAt(),
                state.authorityExpiresAt() + 1, state.replayExpiresAt());
        String base = alice().fingerprint(case01(), state, "alpha");
        List<String> variants = List.of(
                base,
                guard("bob", NOW).fingerprint(case01(), state, "alpha"),
                alice().fingerprint(GuardedIssueArguments.of("case-01", "guarded-01b", null), state, "alpha"),
                alice().fingerprint(GuardedIssueArguments.of("case-01", "guarded-01", "partial"), state, "alpha"),
                alice().fingerprint(case01(), state, "beta"),
                alice().fingerprint(case01(), otherNonce, "alpha"),
                alice().fingerprint(case01(), otherDeadline, "alpha"));
        assertEquals(variants.size(), Set.copyOf(variants).size(), variants.toString());
    }

    @Test
    void fingerprintDoesNotDependOnTheGuardsClockOrTtls() {
        ContinuationState state = alice().mint(case01());
        IssueGuard later = new IssueGuard(new GuardConfig("alice", BACKEND, NOW + 100, 5, 7, KEY), ledger, FaultHook.NONE);
        assertEquals(alice().fingerprint(case01(), state, "alpha"), later.fingerprint(case01(), state, "alpha"));
    }

    @Test
    void fingerprintDependsOnTheKey() {
        ContinuationState state = alice().mint(case01());
        FingerprintKey other = FingerprintKey.fromHex("00".repeat(32), "K");
        IssueGuard otherKey = new IssueGuard(new GuardConfig("alice", BACKEND, NOW, 300, 360, other), ledger, FaultHook.NONE);
        assertNotEquals(alice().fingerprint(case01(), state, "alpha"), otherKey.fingerprint(case01(), state, "alpha"));
    }

    @Test
    void aGuardForAnotherBackendIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IssueGuard(
                new GuardConfig("alice", "sqlite:other", NOW, 300, 360, KEY), ledger, FaultHook.NONE));
        assertEquals("guard backend 'sqlite:other' is not the ledger's 'sqlite:guarded-matrix'", e.getMessage());
    }

    @Test
    void ttlsMustNotBeNegative() {
        IllegalArgumentException authority = assertThrows(IllegalArgumentException.class,
                () -> new GuardConfig("alice", BACKEND, NOW, -1, 360, KEY));
        assertEquals("TTLs must not be negative", authority.getMessage());
        IllegalArgumentException retention = assertThrows(IllegalArgumentException.class,
                () -> new GuardConfig("alice", BACKEND, NOW, 300, -1, KEY));
        assertEquals("TTLs must not be negative", retention.getMessage());
        assertEquals(false, new GuardConfig("alice", BACKEND, NOW, 0, 360, KEY).canMint());
    }

    @Test
    void statusRequiresAnOperationId() {
        for (Object id : new Object[] {"", null, 7}) {
            InvalidApplicationRequest e = assertThrows(InvalidApplicationRequest.class, () -> alice().status(id));
            assertEquals("operation_id is required", e.getMessage());
        }
        InvalidApplicationRequest tooLong = assertThrows(InvalidApplicationRequest.class,
                () -> alice().status("x".repeat(257)));
        assertEquals("operation_id is longer than 256 characters", tooLong.getMessage());
    }

    @Test
    void statusBeforeAndAfterApplying() throws Exception {
        assertEquals(new OperationStatus("case-01", "alice", BACKEND, "2026-09-22T00:00:00+00:00", true, false,
                "operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'",
                new OperationStatus.ScopeBinding("case-01", "alice", BACKEND), "unknown", List.of(),
                "no durable operation record; absence is not terminal non-application proof", null),
                alice().status("case-01"));
        ContinuationState state = alice().mint(case01());
        alice().apply(case01(), state.toJson(), accepted("alpha"));
        assertEquals(new OperationStatus("case-01", "alice", BACKEND, "2026-09-22T00:02:00+00:00", true, false,
                "operation_id='case-01'; principal='alice'; backend='sqlite:guarded-matrix'",
                new OperationStatus.ScopeBinding("case-01", "alice", BACKEND), "applied", List.of(1L),
                "operation ledger and effect row are present", "created 1"),
                guard("alice", NOW + 120).status("case-01"));
    }

    @Test
    void statusIsScopedToTheConfiguredPrincipal() throws Exception {
        ContinuationState state = alice().mint(case01());
        alice().apply(case01(), state.toJson(), accepted("alpha"));
        OperationStatus bob = guard("bob", NOW).status("case-01");
        assertEquals("bob", bob.principal());
        assertEquals("unknown", bob.state());
        assertEquals(List.of(), bob.matchingIds());
        assertEquals(null, bob.storedResult());
        assertEquals("no durable operation record; absence is not terminal non-application proof", bob.detail());
    }

    @Test
    void aGuardWithoutTtlsAppliesAndReadsButNeverMints() throws Exception {
        ContinuationState state = alice().mint(case01());
        IssueGuard verifier = new IssueGuard(GuardConfig.withoutMinting("alice", BACKEND, NOW, KEY), ledger, FaultHook.NONE);
        assertEquals("this guard has no TTLs and cannot mint a continuation state",
                assertThrows(IllegalStateException.class, () -> verifier.mint(case01())).getMessage());
        GuardedIssueResult result = verifier.apply(case01(), state.toJson(),
                ExactJson.parse("{\"body\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\"}}}"));
        assertEquals("created 1", result.result());
        assertEquals("applied", verifier.status("case-01").state());
    }

    private LedgerQueries queries() {
        return new LedgerQueries(ledger);
    }
}
