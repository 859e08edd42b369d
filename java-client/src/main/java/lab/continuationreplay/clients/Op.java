package lab.continuationreplay.clients;

import java.util.List;
import java.util.Set;

/** The step operations of {@code client-script/1}, each with the members its step may carry besides {@code op}. */
public enum Op {
    CONNECT("connect", List.of("connection", "server"), Set.of()),
    LIST_TOOLS("list_tools", List.of("connection"), Set.of()),
    CALL("call", List.of("connection", "tool", "arguments"), Set.of("answer")),
    // ts_api only selects the TypeScript driver's entry point; it is accepted so both drivers read one script.
    CALL_ONCE("call_once", List.of("connection", "tool", "arguments"),
            Set.of("input_responses", "state", "state_transform", "save_state", "ts_api")),
    STATUS("status", List.of("connection", "operation_id"), Set.of()),
    PARALLEL("parallel", List.of("steps"), Set.of()),
    CLOSE("close", List.of("connection"), Set.of());

    private final String wireName;
    // A list, so that a step missing several members is always told about the same one first.
    private final List<String> required;
    private final Set<String> optional;

    Op(String wireName, List<String> required, Set<String> optional) {
        this.wireName = wireName;
        this.required = required;
        this.optional = optional;
    }

    public String wireName() {
        return wireName;
    }

    public List<String> required() {
        return required;
    }

    public boolean allows(String member) {
        return member.equals("op") || required.contains(member) || optional.contains(member);
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
