package lab.continuationreplay.cases;

/**
 * The cases only Streamable HTTP can play, reported beside the twelve frozen ones, never inside them: a reply lost
 * while the server lives on, and continuations racing on connections of their own to one server process.
 */
public enum HttpCaseId implements CaseKey {
    CLOSE_AFTER_COMMIT("h1", "close_after_commit_server_alive", "reconciled_applied_one_effect_server_alive"),
    CONTINUATION_ON_TWO_CONNECTIONS("h2", "same_continuation_on_two_connections", "joined_one_apply_one_replay_one_effect"),
    TWENTY_CONTINUATIONS("h3", "twenty_identical_continuations_at_once", "one_apply_nineteen_replays_one_effect");

    private final Label label;

    HttpCaseId(String number, String seedName, String expected) {
        this.label = new Label(number, seedName, expected);
    }

    @Override
    public Label label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the known ids when {@code number} is none of them */
    public static HttpCaseId of(String number) {
        return CaseKey.byNumber(values(), number, "no HTTP case " + number + " (the HTTP cases are h1..h3)");
    }
}
