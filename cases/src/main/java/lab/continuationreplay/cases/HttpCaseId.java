package lab.continuationreplay.cases;

import java.util.Arrays;

/**
 * The cases only Streamable HTTP can play, reported beside the twelve frozen ones, never inside them: a reply lost
 * while the server lives on, and continuations racing on connections of their own to one server process.
 */
public enum HttpCaseId implements CaseKey {
    CLOSE_AFTER_COMMIT("h1", "close_after_commit_server_alive", "reconciled_applied_one_effect_server_alive"),
    CONTINUATION_ON_TWO_CONNECTIONS("h2", "same_continuation_on_two_connections", "joined_one_apply_one_replay_one_effect"),
    TWENTY_CONTINUATIONS("h3", "twenty_identical_continuations_at_once", "one_apply_nineteen_replays_one_effect");

    private final String number;
    private final String seedName;
    private final String expected;

    HttpCaseId(String number, String seedName, String expected) {
        this.number = number;
        this.seedName = seedName;
        this.expected = expected;
    }

    @Override
    public String number() {
        return number;
    }

    @Override
    public String seedName() {
        return seedName;
    }

    @Override
    public String expected() {
        return expected;
    }

    /** @throws IllegalArgumentException naming the known ids when {@code number} is none of them */
    public static HttpCaseId of(String number) {
        return Arrays.stream(values()).filter(c -> c.number.equals(number)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no HTTP case " + number + " (the HTTP cases are h1..h3)"));
    }
}
