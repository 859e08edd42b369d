package lab.continuationreplay.clients;

import java.util.Set;

/** The step operations of {@code client-script/1}, each with the members its step may carry besides {@code op}. */
public enum Op {
    CONNECT("connect", Set.of("connection", "server")),
    LIST_TOOLS("list_tools", Set.of("connection")),
    CALL("call", Set.of("connection", "tool", "arguments", "answer")),
    // ts_api only selects the TypeScript driver's entry point; it is accepted so every driver reads one script.
    CALL_ONCE("call_once", Set.of("connection", "tool", "arguments", "input_responses", "state", "state_transform",
            "save_state", "ts_api")),
    STATUS("status", Set.of("connection", "operation_id")),
    PARALLEL("parallel", Set.of("steps")),
    CLOSE("close", Set.of("connection"));

    private final String wireName;
    private final Set<String> members;

    Op(String wireName, Set<String> members) {
        this.wireName = wireName;
        this.members = members;
    }

    public String wireName() {
        return wireName;
    }

    public boolean allows(String member) {
        return member.equals("op") || members.contains(member);
    }

    /** The op spelt {@code name}, or null when there is none. */
    public static Op byWireName(String name) {
        for (Op op : values()) {
            if (op.wireName.equals(name)) {
                return op;
            }
        }
        return null;
    }
}
