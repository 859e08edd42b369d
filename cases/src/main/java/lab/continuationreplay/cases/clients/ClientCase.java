package lab.continuationreplay.cases.clients;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.cases.CaseArguments;
import lab.continuationreplay.cases.ServerSetup;

/**
 * One client case: the servers it starts, the steps a client driver runs (docs/client-drivers.md), and what the
 * application must see at each call, written before any run. The runner turns the servers into commands; the checker
 * holds the client records to the expectations.
 *
 * @param effects   issue rows the case must leave
 * @param recovers  whether the application must end up holding the stored result (null: not a recovery case)
 */
public record ClientCase(ClientCaseId id, Map<String, Server> servers, ArrayNode steps, List<Expectation> expectations,
        int effects, Boolean recovers, String versionMode) {

    /** A server a case starts: its setup, and which continuation's reply the relay drops (0: none). */
    public record Server(ServerSetup setup, int dropReplyToContinuation) {}

    /** Whether a relay drops a reply in this case: over stdio only the client's request timeout then ends its wait. */
    public boolean dropsAReply() {
        return servers.values().stream().anyMatch(server -> server.dropReplyToContinuation() > 0);
    }

    /**
     * What the application must see at step {@code step} (inner steps of a parallel step: {@code "3.0"}, ...; a set
     * of inner steps seen in any order: {@code "3.*"} with one entry per inner step). {@code byCell} names where
     * something else is seen, each with why: a difference the lab records, never smooths over. A key is a
     * client x server pair on every transport ({@code "typescript-client/java-server"}), a whole transport
     * ({@code "http"}), one client over one transport ({@code "typescript-client/http"}), or one pair over one
     * transport ({@code "typescript-client/java-server/http"}).
     */
    public record Expectation(String step, List<Seen> seen, Map<String, Differs> byCell) {
        /** What a cell, a transport or a pair sees instead, and why. */
        public record Differs(Seen seen, String because) {}

        /**
         * What {@code cell} must see ({@code typescript-client/java-server}, or with {@code /http} over HTTP): its own
         * entry, else its client's over its transport ({@code typescript-client/http}: a client's own transport
         * decides, whatever the server), else its transport's (a transport changes what every client sees, e.g. how
         * a lost reply shows), else its pair's on every transport (a client's own check, whatever carries it), else
         * the case's.
         */
        public Seen forCell(String cell) {
            return differs(cell).map(Differs::seen).orElse(seen.get(0));
        }

        /** The entry that applies to {@code cell}, by the order of {@link #forCell}; empty where the case's holds. */
        public java.util.Optional<Differs> differs(String cell) {
            return differingKey(cell).map(byCell::get);
        }

        /** The key of the entry that applies to {@code cell} ({@link #differs}): a cell, a client over a transport, a transport or a pair. */
        public java.util.Optional<String> differingKey(String cell) {
            List<String> keys = new ArrayList<>(List.of(cell));
            int transport = cell.indexOf('/', cell.indexOf('/') + 1);
            if (transport > 0) {
                String over = cell.substring(transport + 1);
                keys.add(cell.substring(0, cell.indexOf('/')) + "/" + over);
                keys.add(over);
                keys.add(cell.substring(0, transport));
            }
            return keys.stream().filter(byCell::containsKey).findFirst();
        }

        Expectation with(String key, Seen there, String because) {
            if (because == null || because.isBlank()) {
                throw new IllegalArgumentException("step " + step + ": a difference for " + key + " needs its reason");
            }
            Map<String, Differs> more = new LinkedHashMap<>(byCell);
            if (more.put(key, new Differs(there, because)) != null) {
                throw new IllegalArgumentException("step " + step + ": " + key + " is given twice");
            }
            return new Expectation(step, seen, Map.copyOf(more));
        }
    }

    /**
     * A cell as expectations name it: {@code typescript-client/java-server} over stdio,
     * {@code typescript-client/java-server/http} over HTTP.
     */
    public static String cell(String client, String server, ClientTransport transport) {
        String pair = client + "-client/" + server + "-server";
        return transport == ClientTransport.STDIO ? pair : pair + "/" + transport.label();
    }

    public static Builder of(ClientCaseId id) {
        return new Builder(id);
    }

    /** Reads as the case reads: {@code .connect("a", "server").roundOne("a", "s1").sees(INPUT_REQUIRED)}. */
    public static final class Builder {
        private final ClientCaseId id;
        private final Map<String, Server> servers = new LinkedHashMap<>();
        private final ArrayNode steps = JsonNodeFactory.instance.arrayNode();
        private final List<Expectation> expectations = new ArrayList<>();
        private String mode = "atomic";
        private ArrayNode parallel;
        private int effects = 1;
        private Boolean recovers;
        private String versionMode = "pin";

        private Builder(ClientCaseId id) {
            this.id = id;
        }

        /** The TypeScript client's version negotiation: {@code pin} (2026-07-28, the default here), {@code auto}, {@code default}. */
        public Builder versionMode(String mode) {
            versionMode = mode;
            return this;
        }

        public Builder partial() {
            mode = "partial";
            return this;
        }

        public Builder server(String name, ServerSetup setup) {
            return server(name, setup, 0);
        }

        public Builder server(String name, ServerSetup setup, int dropReplyToContinuation) {
            servers.put(name, new Server(setup, dropReplyToContinuation));
            return this;
        }

        public Builder connect(String connection, String server) {
            return add(step("connect", connection).put("server", server));
        }

        public Builder close(String connection) {
            return add(step("close", connection));
        }

        public Builder listTools(String connection) {
            return add(step("list_tools", connection));
        }

        /** A manual round one of the case's own operation; its state is kept as {@code saveAs}. */
        public Builder roundOne(String connection, String saveAs) {
            return add(callOnce(connection, arguments()).put("save_state", saveAs));
        }

        /** A manual round one through the TypeScript client's lower-level {@code request} API. */
        public Builder roundOneByRequest(String connection, String saveAs) {
            return add(callOnce(connection, arguments()).put("save_state", saveAs).put("ts_api", "request"));
        }

        /** A manual round one of another operation id (a fresh operation). */
        public Builder roundOneOf(String connection, String operationId, String saveAs) {
            ObjectNode arguments = CaseArguments.of(operationId, "guarded-" + operationId, mode);
            return add(callOnce(connection, arguments).put("save_state", saveAs));
        }

        /** A manual continuation: the accepted {@code body} and the saved state {@code state}. */
        public Builder commit(String connection, String state, String body) {
            return add(callOnce(connection, arguments()).set("input_responses", accepted(body))).withState(state, "none");
        }

        /** A manual continuation with the saved state tampered (the seed's middle-character change). */
        public Builder commitTampered(String connection, String state, String body) {
            return add(callOnce(connection, arguments()).set("input_responses", accepted(body))).withState(state, "tamper");
        }

        /** A manual continuation that sends input responses and no state at all. */
        public Builder commitWithoutState(String connection, String body) {
            return add(callOnce(connection, arguments()).set("input_responses", accepted(body)));
        }

        /** The automatic call: every round answered by the client's elicitation handler with {@code body}. */
        public Builder call(String connection, String body) {
            ObjectNode step = step("call", connection).put("tool", CreateTool.NAME);
            step.set("arguments", arguments());
            step.putObject("answer").put("body", body);
            return add(step);
        }

        /** The automatic call of {@code get_operation_status} for the case's operation. */
        public Builder status(String connection) {
            return add(step("status", connection).put("operation_id", id.operationId()));
        }

        /** The steps added inside run side by side behind a barrier, each on its own connection. */
        public Builder parallel(java.util.function.Consumer<Builder> inner) {
            parallel = JsonNodeFactory.instance.arrayNode();
            inner.accept(this);
            ObjectNode step = JsonNodeFactory.instance.objectNode().put("op", "parallel");
            step.set("steps", parallel);
            parallel = null;
            steps.add(step);
            return this;
        }

        /** What the application must see at the last step added. */
        public Builder sees(Seen seen) {
            expectations.add(new Expectation(lastStep(), List.of(seen), Map.of()));
            return this;
        }

        /** As {@link #sees(Seen)}, except in {@code cell} (a pair, on every transport), which sees {@code there} for the reason given. */
        public Builder sees(Seen seen, String cell, Seen there, String because) {
            return sees(seen).differing(cell, there, because);
        }

        /** As {@link #sees(Seen)}, except in both cells of {@code client}, which see {@code there} for the reason given. */
        public Builder seesInClient(Seen seen, String client, Seen there, String because) {
            return sees(seen).differing(client + "-client/java-server", there, because)
                    .differing(client + "-client/typescript-server", there, because);
        }

        /** The last expectation, except that {@code cell} (a pair, on every transport) sees {@code there}, for the reason given. */
        public Builder alsoIn(String cell, Seen there, String because) {
            return differing(cell, there, because);
        }

        /** The last expectation, except that every cell over HTTP sees {@code there}, for the reason given. */
        public Builder overHttp(Seen there, String because) {
            return differing(ClientTransport.HTTP.label(), there, because);
        }

        /** The last expectation, except that {@code cell} ({@code typescript-client/java-server}) over HTTP sees {@code there}. */
        public Builder overHttpIn(String cell, Seen there, String because) {
            return differing(cell + "/" + ClientTransport.HTTP.label(), there, because);
        }

        /**
         * The last expectation, except that every cell of {@code client} over HTTP sees {@code there}, whichever server
         * it drives (the client's own HTTP transport decides; keyed {@code typescript-client/http}).
         */
        public Builder overHttpInClient(String client, Seen there, String because) {
            return differing(client + "-client/" + ClientTransport.HTTP.label(), there, because);
        }

        /** What the inner steps of the last parallel step must see, in any order. */
        public Builder seeInAnyOrder(Seen... seen) {
            expectations.add(new Expectation((steps.size() - 1) + ".*", List.of(seen), Map.of()));
            return this;
        }

        private Builder differing(String key, Seen there, String because) {
            if (expectations.isEmpty() || expectations.get(expectations.size() - 1).step().endsWith(".*")) {
                throw new IllegalStateException("a difference belongs to a step's expectation, and there is none before it");
            }
            int last = expectations.size() - 1;
            expectations.set(last, expectations.get(last).with(key, there, because));
            return this;
        }

        public Builder effects(int rows) {
            effects = rows;
            return this;
        }

        public Builder recovers(boolean value) {
            recovers = value;
            return this;
        }

        public ClientCase build() {
            return new ClientCase(id, Map.copyOf(servers), steps.deepCopy(), List.copyOf(expectations), effects, recovers, versionMode);
        }

        private ObjectNode arguments() {
            return CaseArguments.of(id.operationId(), "guarded-" + id.operationId(), mode);
        }

        private Builder withState(String state, String transform) {
            ObjectNode last = (ObjectNode) (parallel != null ? parallel.get(parallel.size() - 1) : steps.get(steps.size() - 1));
            last.put("state", state).put("state_transform", transform);
            return this;
        }

        private static ObjectNode step(String op, String connection) {
            return JsonNodeFactory.instance.objectNode().put("op", op).put("connection", connection);
        }

        private static ObjectNode callOnce(String connection, ObjectNode arguments) {
            ObjectNode step = step("call_once", connection).put("tool", CreateTool.NAME);
            step.set("arguments", arguments);
            return step;
        }

        private static ObjectNode accepted(String body) {
            ObjectNode responses = JsonNodeFactory.instance.objectNode();
            responses.putObject("body").put("action", "accept").putObject("content").put("body", body);
            return responses;
        }

        private Builder add(ObjectNode step) {
            (parallel != null ? parallel : steps).add(step);
            return this;
        }

        private String lastStep() {
            return Integer.toString(steps.size() - 1);
        }
    }

    /** The guarded tool's name, as the servers register it. */
    static final class CreateTool {
        static final String NAME = "create_guarded_issue";

        private CreateTool() {}
    }
}
