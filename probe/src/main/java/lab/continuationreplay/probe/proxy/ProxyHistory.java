package lab.continuationreplay.probe.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.probe.ProbeInputException;
import lab.continuationreplay.vectors.ExactJson;

/**
 * What a proxy run leaves, and no verdict: {@code plan.json}, and in {@code run/} per session ({@code s1}, {@code s2},
 * ...) the transcript byte for byte, its events (each line or exchange with its time and what the proxy did with it)
 * and, over stdio, the server's stderr. A client that starts its server again (over stdio it starts the proxy again)
 * gets a new session in the same folder when the plan is the same. When a session ends, {@code history.jsonl} is
 * written again with the hashes of {@code run/} as it now is; the checker derives {@code proxy.json} from these.
 */
public final class ProxyHistory {
    public static final String PLAN = "plan.json";
    public static final String RUN = "run";
    public static final String EVENTS = ".events.jsonl";
    public static final String TRANSCRIPT = ".transcript.log";
    public static final String STDERR = ".stderr.log";
    private static final String LOCK = ".proxy.lock";

    private final Path out;
    private final Path run;
    private final String session;
    private final Path events;
    private int sequence;

    private ProxyHistory(Path out, String session) {
        this.out = out;
        this.run = out.resolve(RUN);
        this.session = session;
        this.events = run.resolve(session + EVENTS);
    }

    /** The plan as written: the upstream (a command's words or the URLs), the loss, its number, the stop. */
    static ObjectNode plan(ProxyOptions options) {
        ObjectNode plan = Format.PROXY_PLAN.document();
        ObjectNode upstream = plan.putObject("upstream");
        if (options.upstream() instanceof ProxyOptions.Stdio stdio) {
            upstream.put("transport", "stdio");
            stdio.command().forEach(upstream.putArray("command")::add);
        } else if (options.upstream() instanceof ProxyOptions.Http http) {
            upstream.put("transport", "http");
            upstream.put("url", http.url().toString());
            upstream.put("listen", http.listenPort());
        }
        plan.put("lose", options.loss().label());
        plan.put("nth", options.nth());
        if (options.calls() == null) {
            plan.putNull("calls");
        } else {
            plan.put("calls", options.calls());
        }
        return plan;
    }

    /**
     * Claims the next session of {@code options.out()}: a new or empty folder starts the run with its plan; a folder
     * of an earlier session of the same plan goes on with the next number; anything else is bad input.
     */
    static ProxyHistory open(ProxyOptions options, boolean sessionsMayFollow) throws IOException {
        Path out = options.out();
        ObjectNode plan = plan(options);
        String planText = ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(Format.PROXY_PLAN.stamp(plan)) + "\n";
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new ProbeInputException("--out " + out + " is a file, not a folder");
        }
        Path planFile = out.resolve(PLAN);
        // nothing is created in a folder that is not this run's, not even the lock
        refuseForeign(out, planFile, planText, sessionsMayFollow);
        Files.createDirectories(out);
        try (FileChannel channel = FileChannel.open(out.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = channel.lock()) {
            refuseForeign(out, planFile, planText, sessionsMayFollow);
            if (!Files.exists(planFile)) {
                Files.writeString(planFile, planText, StandardCharsets.UTF_8);
            }
            Files.createDirectories(out.resolve(RUN));
            for (int n = 1; ; n++) {
                try {
                    Files.createFile(out.resolve(RUN).resolve("s" + n + EVENTS));
                    return new ProxyHistory(out, "s" + n);
                } catch (FileAlreadyExistsException taken) {
                    // an earlier session's; the next number
                }
            }
        }
    }

    private static void refuseForeign(Path out, Path planFile, String planText, boolean sessionsMayFollow) throws IOException {
        if (!Files.isDirectory(out)) {
            return;
        }
        if (Files.exists(planFile)) {
            if (!sessionsMayFollow || !Files.readString(planFile, StandardCharsets.UTF_8).equals(planText)) {
                throw new ProbeInputException("--out " + out + " holds another run; give a new or empty folder"
                        + (sessionsMayFollow ? " (or the same options as that run, to add a session to it)" : ""));
            }
            return;
        }
        try (Stream<Path> entries = Files.list(out)) {
            if (entries.anyMatch(p -> !p.getFileName().toString().equals(LOCK))) {
                throw new ProbeInputException("--out " + out + " is not empty and holds no proxy run; the lab never overwrites evidence");
            }
        }
    }

    String session() {
        return session;
    }

    Path file(String suffix) {
        return run.resolve(session + suffix);
    }

    /** How many calls completed in the earlier sessions, and whether one of them lost its reply, from their events. */
    record Before(int completed, boolean lost) {}

    Before before() throws IOException {
        int completed = 0;
        boolean lost = false;
        try (Stream<Path> files = Files.list(run)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(EVENTS) && !f.equals(events)).toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    JsonNode event = ExactJson.parse(line);
                    completed = Math.max(completed, event.path("completing").asInt(0));
                    lost |= isLoss(event.path("action").asText());
                }
            }
        }
        return new Before(completed, lost);
    }

    /** The actions that keep a reply from the client: over stdio {@code lost} (and the output closed after it), over HTTP {@code held} or {@code dropped}. */
    public static boolean isLoss(String action) {
        return List.of("lost", "lost-and-closed", "held", "dropped").contains(action);
    }

    /** A new event of this session, stamped and numbered; the caller adds its members and then {@link #append}s it. */
    ObjectNode event(String kind, long atMs) {
        ObjectNode event = Format.PROXY_EVENT.document();
        event.put("session", session);
        event.put("kind", kind);
        event.put("at_ms", atMs);
        return event;
    }

    synchronized void append(ObjectNode event) {
        event.put("seq", ++sequence);
        try {
            Files.writeString(events, ExactJson.mapper().writeValueAsString(event) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes {@code history.jsonl} again with the hashes of {@code run/} as every session so far has left it, and
     * removes what the previous seal's checker derived, so that it is derived again.
     */
    void seal(String machineryError) throws IOException {
        try (FileChannel channel = FileChannel.open(out.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = channel.lock()) {
            for (String derived : RESEALED) {
                Files.deleteIfExists(out.resolve(derived));
            }
            RunLog.append(out.resolve(Layout.HISTORY), run, machineryError);
        }
    }

    /** What a seal writes again: the hashes, and what the checker and the report derived from the previous ones. */
    private static final List<String> RESEALED = List.of(Layout.HISTORY, "proxy.json", "report.html");
}
