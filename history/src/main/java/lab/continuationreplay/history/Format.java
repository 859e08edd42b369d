package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import lab.continuationreplay.vectors.CanonicalJsonException;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The format of every JSON document the lab writes, one constant per kind, each with its version. A document carries
 * its tag ({@code "results/1"}) in a {@code "format"} member; a reader checks the tag before it reads anything else,
 * so evidence written by another version of the lab is refused with a sentence, never misread or met with a parse
 * error deep inside a reader. Raise a version when a reader of the old shape would misread the new one.
 */
public enum Format {
    /**
     * One record of an attempt's {@code results.jsonl}, derived by the checker. Version 2: the runner no longer writes
     * it; it is derived from {@code history.jsonl} and the artifacts.
     */
    RESULTS("results", 2, "lab matrix"),
    /**
     * One line of an attempt's (or the controls') {@code history.jsonl}: a folder the runner filled and its hashes.
     * Its optional {@code played_ms} came later without a new version: a reader that does not know it misreads nothing.
     */
    HISTORY("history", 1, "lab matrix"),
    /** An attempt's {@code requested.json}: the cases it was asked to run. */
    REQUESTED("requested", 1, "lab matrix"),
    /** A case's {@code processes.json}: each process in spawn order and its exit status. */
    PROCESSES("processes", 1, "lab matrix"),
    /** An attempt's {@code provenance.json}: runtimes, SDK versions, hashes of the code that ran. */
    PROVENANCE("provenance", 1, "lab matrix"),
    /** A matrix folder's {@code comparison.json}. */
    COMPARISON("comparison", 1, "lab matrix"),
    /** A matrix folder's {@code controls/controls.json}. */
    CONTROLS("controls", 1, "lab matrix"),
    /** A client case's {@code script.json}: the steps a client driver runs (docs/client-drivers.md). */
    CLIENT_SCRIPT("client-script", 1, "lab clients"),
    /** One line of a client case's {@code client.records.jsonl}: one step as the client saw it. */
    CLIENT_RECORD("client-record", 1, "lab clients"),
    /**
     * One record of a client cell's {@code results.jsonl}, derived by the checker. Version 2: the statuses
     * {@code expected_failure} and {@code now_passes}, and the {@code expected_failure} member of a listed cell.
     */
    CLIENT_RESULTS("client-results", 2, "lab clients"),
    /** A clients folder's {@code clients.json}. */
    CLIENTS("clients", 1, "lab clients"),
    /** {@code lab bench}'s {@code bench.json}. */
    BENCH("bench", 1, "lab bench"),
    /** {@code lab faults}'s {@code faults.json}. */
    FAULTS("faults", 2, "lab faults"),
    /** One line of a fault run's history ({@code fault-history.jsonl}): what was sent, answered, killed or cut, and when. */
    FAULT_EVENT("fault-event", 1, "lab faults"),
    /** SHA-256 of a fault run's history and of every ledger it names ({@code fault-hashes.json}). */
    FAULT_HASHES("fault-hashes", 1, "lab faults"),
    /** {@code lab matrix --in-container}'s {@code runtimes.json}. */
    RUNTIMES("runtimes", 1, "lab matrix --in-container"),
    /** A recording relay's {@code <name>.relay.jsonl}: the reply it kept from the client on purpose. */
    RELAY("relay", 1, "lab clients"),
    /** A recording relay's {@code <name>.exit.json}: how its server ended and what ended it. */
    EXIT("exit", 1, "lab clients"),
    /** conformance.json: the official suite's scenarios per server and client, against the expected failures. */
    CONFORMANCE("conformance", 1, "lab conformance"),
    /** conformance/expected-failures/SDK.json: the scenarios an SDK itself cannot pass, each with its finding. */
    EXPECTED_FAILURES("expected-failures", 1, "the lab's maintainers"),
    /** {@code lab conformance --strict}'s {@code strict.json}: the lab's own MRTR checks against one server URL. */
    STRICT("strict", 2, "lab conformance --strict"),
    /**
     * {@code store.rows.json}: a logical dump of a PostgreSQL ledger's rows (every table, its columns with their
     * SQLite types, every row), the evidence a case on {@code --ledger postgres} leaves where SQLite leaves its file.
     */
    LEDGER_ROWS("ledger-rows", 1, "lab matrix --ledger postgres"),
    /** {@code lab replicas}'s {@code network.json}: what a container on the replicas' network could reach. */
    NETWORK("network", 1, "lab replicas"),
    /** {@code lab probe}'s {@code plan.json}: the target, the tool, its arguments and the observer (no secret). */
    PROBE_PLAN("probe-plan", 1, "lab probe"),
    /** One line of {@code lab probe}'s {@code events.jsonl}: an exchange, an observer reading, a restart. */
    PROBE_EVENT("probe-event", 1, "lab probe"),
    /** {@code lab probe}'s {@code probe.json}: one verdict per check, derived from the history by the checker. */
    PROBE("probe", 1, "lab probe"),
    /** {@code lab proxy}'s {@code plan.json}: the upstream, what to lose and when, when to stop (no header value). */
    PROXY_PLAN("proxy-plan", 1, "lab proxy"),
    /** One line of a {@code lab proxy} session's events: a line or exchange with its time and what was done with it. */
    PROXY_EVENT("proxy-event", 1, "lab proxy"),
    /** {@code lab proxy}'s {@code proxy.json}: the loss and what the client did after it, derived from the history. */
    PROXY("proxy", 1, "lab proxy");

    /** The member that carries the tag, first in every document. */
    public static final String MEMBER = "format";

    private final String kind;
    private final int version;
    private final String writtenBy;

    Format(String kind, int version, String writtenBy) {
        this.kind = kind;
        this.version = version;
        this.writtenBy = writtenBy;
    }

    public String kind() {
        return kind;
    }

    public int version() {
        return version;
    }

    /** The command that writes this kind of document: what to run again when an old one is refused. */
    public String writtenBy() {
        return writtenBy;
    }

    /** {@code kind/version}, e.g. {@code "results/1"}: the value of the format member. */
    public String tag() {
        return kind + "/" + version;
    }

    /**
     * Puts this format's tag into {@code document} as its first member (so a reader, or a person, sees it at once)
     * and returns the same node. A format member already present is replaced, never duplicated.
     */
    public ObjectNode stamp(ObjectNode document) {
        ObjectNode rest = document.deepCopy();
        rest.remove(MEMBER);
        document.removeAll();
        document.put(MEMBER, tag());
        document.setAll(rest);
        return document;
    }

    /** A new object holding only this format's tag, for writers that build their document member by member. */
    public ObjectNode document() {
        return stamp(ExactJson.mapper().createObjectNode());
    }

    /**
     * Checks that {@code document} carries this format's tag. {@code where} names the document in the message, e.g.
     * {@code java/requested.json} or {@code java/results.jsonl: record 1}.
     *
     * @return the document as an object, for the caller to read on
     * @throws FormatException when it is not an object, has no format member, or carries another tag
     */
    public ObjectNode check(JsonNode document, String where) throws FormatException {
        if (document == null || !document.isObject()) {
            throw new FormatException(where + " has no format version (it is " + shape(document) + ", not an object):"
                    + beforeVersions());
        }
        JsonNode found = document.get(MEMBER);
        if (found == null) {
            throw new FormatException(where + " has no format version:" + beforeVersions());
        }
        if (!found.isTextual() || !found.textValue().equals(tag())) {
            throw new FormatException(where + ": format " + found + " is not one this checker reads (it reads \"" + tag() + "\")");
        }
        return (ObjectNode) document;
    }

    /**
     * Parses {@code text} with the lab's exact parser and checks its format: a document that is not JSON at all is
     * refused with the same kind of sentence, never with the parser's exception.
     */
    public ObjectNode read(String text, String where) throws FormatException {
        JsonNode document;
        try {
            document = ExactJson.parse(text);
        } catch (CanonicalJsonException e) {
            throw new FormatException(where + " is not JSON (" + e.getMessage() + "); expected a \"" + tag() + "\" document");
        }
        return check(document, where);
    }

    private String beforeVersions() {
        return " written by a lab before format versions; re-run " + writtenBy;
    }

    private static String shape(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "empty";
        }
        return Map.of("ARRAY", "a JSON array", "STRING", "a JSON string", "NUMBER", "a JSON number", "BOOLEAN",
                "a JSON boolean", "NULL", "JSON null").getOrDefault(node.getNodeType().name(), "a JSON value");
    }
}
