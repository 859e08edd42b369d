package lab.continuationreplay.clients;

/** What happens to a saved {@code requestState} before a {@code call_once} sends it. */
public enum StateTransform {
    NONE("none"),
    /** The seed's tamper: the middle character becomes {@code A}, or {@code B} if it is {@code A} already. */
    TAMPER("tamper");

    private final String wireName;

    StateTransform(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public String apply(String state) {
        if (this == NONE) {
            return state;
        }
        int middle = state.length() / 2;
        char replacement = state.charAt(middle) == 'A' ? 'B' : 'A';
        return state.substring(0, middle) + replacement + state.substring(middle + 1);
    }

    public static StateTransform byWireName(String name) {
        for (StateTransform transform : values()) {
            if (transform.wireName.equals(name)) {
                return transform;
            }
        }
        return null;
    }
}
