package lab.continuationreplay.cases;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything about one frozen case, in one place: the script the runner plays, and what the checker holds the history
 * to (seed spec §9.2–9.14). Every outcome also carries {@code effects}, the issue rows; a case lists the other members.
 *
 * @param effect           the one row the case must leave in {@code issues} and {@code operations}, or none
 * @param minContinuations continuations (tools/call with inputResponses) the history must hold at least
 * @param refusals         which refusals the wire must show, each in the shape its SDK gives it
 * @param wireRules        further rules about the calls sent
 * @param exitStatuses     processes whose exit status is not 0 (the rest must exit 0)
 * @param steps            the step rows a partial effect leaves, or null when the case must leave none
 * @param outcome          each outcome member (besides {@code effects}) and how it is observed
 * @param frozenOutcome    the outcome every SDK must reduce to, as JSON
 */
public record CaseSpec(
        CaseKey id,
        Effect effect,
        int minContinuations,
        Set<Refusal> refusals,
        Set<WireRule> wireRules,
        Map<String, Integer> exitStatuses,
        StepRows steps,
        Map<String, Observation> outcome,
        String frozenOutcome,
        CaseScript script) {

    /** The principal every case's operation belongs to, and the body its accepted input carries. */
    public static final String PRINCIPAL = "alice";
    public static final String BODY = "alpha";

    /** The row a case leaves. */
    public enum Effect {
        NONE,
        /** One issue, one operation in state {@code applied}. */
        APPLIED,
        /** One issue, one operation in state {@code partial} (the watcher and its compensation failed). */
        PARTIAL;

        /** The operation row's state, or null for none. */
        public String state() {
            return switch (this) {
                case NONE -> null;
                case APPLIED -> "applied";
                case PARTIAL -> "partial";
            };
        }
    }

    /** A refusal the history must show. */
    public enum Refusal {
        /** At least one refusal by the guard (the ledger), in the SDK's shape for tool refusals. */
        GUARD,
        /** At least one refusal of the request state by the SDK: JSON-RPC -32602, data.reason invalid_request_state. */
        STATE
    }

    /** A rule about the calls a case sends. */
    public enum WireRule {
        NEVER_CONTINUES,
        /** At least one continuation went out without a {@code requestState}. */
        SENDS_STATELESS_CONTINUATION
    }

    /** The step rows of a partial effect: events as {@code step/outcome/error_type}, and the one compensation's outcome. */
    public record StepRows(List<String> events, String compensation) {}

    public CaseSpec {
        refusals = Collections.unmodifiableSet(EnumSet.copyOf(refusals.isEmpty() ? EnumSet.noneOf(Refusal.class) : refusals));
        wireRules = Collections.unmodifiableSet(wireRules.isEmpty() ? EnumSet.noneOf(WireRule.class) : EnumSet.copyOf(wireRules));
        exitStatuses = Map.copyOf(exitStatuses);
        outcome = Collections.unmodifiableMap(new LinkedHashMap<>(outcome));
    }

    /** The exit status process {@code name} must end with. */
    public int exitStatus(String name) {
        return exitStatuses.getOrDefault(name, 0);
    }

    public static Builder of(CaseKey id) {
        return new Builder(id);
    }

    /** Reads as the case reads: {@code CaseSpec.of(id).effect(APPLIED).minContinuations(2).observe(...)}. */
    public static final class Builder {
        private final CaseKey id;
        private Effect effect = Effect.APPLIED;
        private int minContinuations;
        private final Set<Refusal> refusals = EnumSet.noneOf(Refusal.class);
        private final Set<WireRule> wireRules = EnumSet.noneOf(WireRule.class);
        private final Map<String, Integer> exits = new LinkedHashMap<>();
        private StepRows steps;
        private final Map<String, Observation> outcome = new LinkedHashMap<>();

        private Builder(CaseKey id) {
            this.id = id;
        }

        public Builder effect(Effect value) {
            effect = value;
            return this;
        }

        public Builder minContinuations(int value) {
            minContinuations = value;
            return this;
        }

        public Builder refusals(Refusal... values) {
            refusals.addAll(List.of(values));
            return this;
        }

        public Builder rule(WireRule value) {
            wireRules.add(value);
            return this;
        }

        public Builder exits(String process, int status) {
            exits.put(process, status);
            return this;
        }

        public Builder steps(StepRows value) {
            steps = value;
            return this;
        }

        /**
         * The commit's reply is lost: process {@code crashed} exits 70 after committing, then a status read-back
         * settles it. Observes the transport, the exit, the reconciled effect and the consumer's next action.
         */
        public Builder lostReplyOn(String crashed) {
            return exits(crashed, 70)
                    .observe("transport", Observation.of(Observation.Kind.TRANSPORT))
                    .observe("crash_exit", Observation.of(Observation.Kind.CRASH_EXIT))
                    .observe("reconciled", Observation.of(Observation.Kind.RECONCILED))
                    .observe("consumer_action", Observation.of(Observation.Kind.CONSUMER_ACTION));
        }

        public Builder observe(String member, Observation observation) {
            if (outcome.put(member, observation) != null || member.equals("effects")) {
                throw new IllegalArgumentException(id + ": outcome member " + member + " given twice");
            }
            return this;
        }

        public CaseSpec frozen(String outcomeJson, CaseScript script) {
            return new CaseSpec(id, effect, minContinuations, refusals, wireRules, exits, steps, outcome, outcomeJson, script);
        }
    }
}
