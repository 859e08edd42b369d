package lab.continuationreplay.history;

/**
 * Where everything sits in a matrix folder: the names the runner writes under and the checker reads from. One place,
 * so the two never disagree about a file name.
 *
 * <pre>
 * OUT/&lt;attempt&gt;/requested.json, provenance.json, history.jsonl        (the runner)
 * OUT/&lt;attempt&gt;/case-NN/store.sqlite3 (or store.rows.json), processes.json, NAME.transcript.log, NAME.stderr.log   (the runner)
 * OUT/&lt;attempt&gt;/results.jsonl, SUMMARY.json                         (the checker)
 * OUT/controls/&lt;control&gt;/..., OUT/controls/history.jsonl              (the runner)
 * OUT/controls/controls.json                                         (the checker)
 * </pre>
 */
public final class Layout {
    public static final String REQUESTED = "requested.json";
    public static final String PROVENANCE = "provenance.json";
    public static final String HISTORY = "history.jsonl";
    public static final String RESULTS = "results.jsonl";
    public static final String SUMMARY = "SUMMARY.json";
    public static final String DATABASE = "store.sqlite3";
    /** A case on a PostgreSQL ledger: the logical dump of its rows ({@link Format#LEDGER_ROWS}) instead of the file. */
    public static final String LEDGER_DUMP = "store.rows.json";
    public static final String PROCESSES = "processes.json";
    public static final String TRANSCRIPT_SUFFIX = ".transcript.log";
    public static final String STDERR_SUFFIX = ".stderr.log";
    public static final String CONTROLS = "controls";
    public static final String CONTROLS_FILE = "controls.json";
    /** The attempt folders of the two SDKs under test; cross-SDK cells are {@code cross-<crash>-to-<recover>}. */
    public static final String CROSS_PREFIX = "cross-";
    /**
     * The attempt folders of the SDK columns, in column order (over HTTP each with {@link #HTTP_SUFFIX}): part of the
     * evidence format, so the checker finds every column without knowing how the runner starts its servers.
     */
    public static final java.util.List<String> SDK_COLUMNS = Sdk.labels();

    /** An attempt over Streamable HTTP: the stdio attempt's name and this, e.g. {@code java-http}. */
    public static final String HTTP_SUFFIX = "-http";
    /** The attempt holding the HTTP-only cases of one SDK: {@code http-cases-<sdk>}. */
    public static final String HTTP_CASES_PREFIX = "http-cases-";
    /** Over HTTP, what a server process wrote to stdout (nothing, unless it is broken): {@code NAME.stdout.log}. */
    public static final String STDOUT_SUFFIX = ".stdout.log";

    /**
     * An attempt of {@code lab replicas}: {@code replicas-<sdk>} holds the cells within one SDK's replicas,
     * {@link #REPLICAS_CROSS} the cells across two SDKs.
     */
    public static final String REPLICAS_PREFIX = "replicas-";
    public static final String REPLICAS_CROSS = REPLICAS_PREFIX + "cross";

    /** A client cell's attempt folder: {@code client-<client>-server-<server>}. */
    public static final String CLIENT_PREFIX = "client-";
    /** In a client case's folder: the step script the driver ran, its records, its stderr. */
    public static final String SCRIPT = "script.json";
    public static final String CLIENT_RECORDS = "client.records.jsonl";
    public static final String DRIVER_STDERR = "driver.stderr.log";
    /** In a client case's folder, per relayed server process: how it ended, and the replies the relay dropped. */
    public static final String EXIT_SUFFIX = ".exit.json";
    public static final String RELAY_SUFFIX = ".relay.jsonl";
    /** A clients folder's derived summary across the cells. */
    public static final String CLIENTS_FILE = "clients.json";

    private Layout() {}

    /** A client cell's folder name, e.g. {@code client-typescript-server-java}. */
    public static String clientCell(String client, String server) {
        return CLIENT_PREFIX + client + "-server-" + server;
    }

    /**
     * The ledger evidence of a case folder: the PostgreSQL dump when the runner left one, else the SQLite file
     * (which may not exist: a case whose servers never opened their ledger has no rows).
     */
    public static java.nio.file.Path ledgerEvidence(java.nio.file.Path caseFolder) {
        java.nio.file.Path dump = caseFolder.resolve(LEDGER_DUMP);
        return java.nio.file.Files.exists(dump) ? dump : caseFolder.resolve(DATABASE);
    }

    /** A case's folder name: {@code case-01}. */
    public static String caseFolder(String caseId) {
        return "case-" + caseId;
    }

    /** A process's transcript file name. */
    public static String transcript(String process) {
        return process + TRANSCRIPT_SUFFIX;
    }

    /** A process's stdout file name (HTTP servers only: a stdio server's stdout is its transcript). */
    public static String stdout(String process) {
        return process + STDOUT_SUFFIX;
    }

    /** The SDK an SDK attempt, an HTTP attempt or an HTTP-cases attempt is of: {@code java} for {@code java-http}. */
    public static String sdkOf(String attempt) {
        String sdk = attempt.startsWith(HTTP_CASES_PREFIX) ? attempt.substring(HTTP_CASES_PREFIX.length()) : attempt;
        return sdk.endsWith(HTTP_SUFFIX) ? sdk.substring(0, sdk.length() - HTTP_SUFFIX.length()) : sdk;
    }

    /** A process's stderr file name. */
    public static String stderr(String process) {
        return process + STDERR_SUFFIX;
    }
}
