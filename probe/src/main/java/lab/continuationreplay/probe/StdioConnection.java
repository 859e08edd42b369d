package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.wire.Lines;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A stdio server the probe starts with {@code sh -c command}: requests are lines on its stdin, which stays open until
 * the probe is done; a reader thread hands each reply to the request with its id, so requests sent together get
 * their replies in whatever order the server writes them. Lines that are not frames stay in the transcript only.
 */
final class StdioConnection implements ProbeConnection {
    private final Process process;
    private final OutputStream stdin;
    private final Transcript transcript;
    private final Duration timeout;
    private final ProbeClock clock;
    private final Map<String, CompletableFuture<ObjectNode>> waiting = new ConcurrentHashMap<>();
    private final CompletableFuture<String> ended = new CompletableFuture<>();
    private volatile java.util.function.BiFunction<String, JsonNode, JsonNode> responder;

    private StdioConnection(Process process, Transcript transcript, Duration timeout, ProbeClock clock) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.transcript = transcript;
        this.timeout = timeout;
        this.clock = clock;
        Thread reader = new Thread(this::pump, "probe-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code sh -c command} with this process's environment plus {@code environment} (never written anywhere);
     * stderr goes to {@code stderrLog}.
     */
    static StdioConnection start(String command, Map<String, String> environment, Path transcriptFile, Path stderrLog,
            Duration timeout, ProbeClock clock) {
        try {
            Process process = Exec.command("sh", "-c", command).addingEnvironment(environment).withStdin(Exec.Io.PIPE)
                    .withStdout(Exec.Io.PIPE).withStderr(Exec.Io.appendTo(stderrLog)).start();
            return new StdioConnection(process, new Transcript(transcriptFile), timeout, clock);
        } catch (IOException e) {
            throw new ProbeInputException("--command: cannot start sh -c '" + command + "': " + e.getMessage(), e);
        }
    }

    @Override
    public Exchange send(ObjectNode frame) {
        long at = clock.millis();
        CompletableFuture<ObjectNode> reply = expect(frame);
        String failure = write(frame);
        return failure != null ? new Exchange(frame, null, failure, at, clock.millis() - at) : await(frame, reply, at, timeout);
    }

    @Override
    public Exchange cut(ObjectNode frame, ObjectNode cancelled) {
        long at = clock.millis();
        CompletableFuture<ObjectNode> reply = expect(frame);
        String failure = write(frame);
        if (failure == null) {
            failure = write(cancelled);
        }
        if (failure != null) {
            waiting.remove(frame.get("id").toString());
            return new Exchange(frame, null, failure, at, clock.millis() - at);
        }
        Exchange late = await(frame, reply, at, Duration.ofSeconds(1));
        return late.reply() != null ? late
                : new Exchange(frame, null, "cut: notifications/cancelled sent right after the request", at, clock.millis() - at);
    }

    @Override
    public List<Exchange> sendTogether(List<ObjectNode> frames) {
        long at = clock.millis();
        List<CompletableFuture<ObjectNode>> replies = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (ObjectNode frame : frames) {
            replies.add(expect(frame));
        }
        for (ObjectNode frame : frames) {
            failures.add(write(frame));
        }
        List<Exchange> exchanges = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            exchanges.add(failures.get(i) != null ? new Exchange(frames.get(i), null, failures.get(i), at, clock.millis() - at)
                    : await(frames.get(i), replies.get(i), at, timeout));
        }
        return exchanges;
    }

    private CompletableFuture<ObjectNode> expect(ObjectNode frame) {
        CompletableFuture<ObjectNode> reply = new CompletableFuture<>();
        waiting.put(frame.get("id").toString(), reply);
        return reply;
    }

    private synchronized String write(ObjectNode frame) {
        String line = frame.toString();
        transcript.sent(line);
        try {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            return null;
        } catch (IOException e) {
            return "cannot write to the server: " + e.getMessage() + exitNote();
        }
    }

    private Exchange await(ObjectNode frame, CompletableFuture<ObjectNode> reply, long at, Duration limit) {
        String id = frame.get("id").toString();
        try {
            ObjectNode got = CompletableFuture.anyOf(reply, ended).get(limit.toMillis(), TimeUnit.MILLISECONDS) instanceof ObjectNode o
                    ? o : null;
            if (got != null) {
                return new Exchange(frame, got, null, at, clock.millis() - at);
            }
            return new Exchange(frame, null, "the server closed stdout before replying" + exitNote(), at, clock.millis() - at);
        } catch (TimeoutException e) {
            return new Exchange(frame, null, "no reply within " + limit.toMillis() + " ms", at, clock.millis() - at);
        } catch (ExecutionException e) {
            return new Exchange(frame, null, "reading the reply failed: " + e.getCause(), at, clock.millis() - at);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Exchange(frame, null, "interrupted while waiting", at, clock.millis() - at);
        } finally {
            waiting.remove(id);
        }
    }

    private void pump() {
        try (InputStream out = process.getInputStream()) {
            Lines.split(out, (bytes, ended) -> deliver(bytes));
        } catch (IOException e) {
            // the process went away
        }
        ended.complete("ended");
    }

    private void deliver(byte[] bytes) {
        transcript.receivedBytes(bytes);
        JsonNode frame;
        try {
            frame = ExactJson.parse(new String(bytes, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException notJson) {
            return;
        }
        if (frame instanceof ObjectNode object && object.hasNonNull("id") && object.has("method") && !object.has("result")
                && !object.has("error")) {
            answerServerRequest(object);
            return;
        }
        if (frame instanceof ObjectNode object && object.has("id") && (object.has("result") || object.has("error"))) {
            CompletableFuture<ObjectNode> reply = waiting.get(object.get("id").toString());
            if (reply != null) {
                reply.complete(object);
            }
        }
    }

    /**
     * A request from the server in the middle of a call (before 2026-07-28 a server asks for input that way): answered
     * on its own thread, so the reader goes on reading while the answer is written.
     */
    private void answerServerRequest(ObjectNode request) {
        ObjectNode response = ProbeConnection.answer(request, responder);
        CompletableFuture.runAsync(() -> write(response));
    }

    /** How requests from the server are answered (null: with a method-not-found error). */
    void answerServerRequests(java.util.function.BiFunction<String, JsonNode, JsonNode> responder) {
        this.responder = responder;
    }

    /** Sends a notification: a frame without an id, which gets no reply. */
    @Override
    public String notify(ObjectNode notification) {
        return write(notification);
    }

    private String exitNote() {
        try {
            if (process.waitFor(1, TimeUnit.SECONDS)) {
                return " (the server exited with status " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    /** Kills the server and its children at once (p7's restart; a crash, as the lost reply's cause). */
    void kill() {
        Exec.killTree(process);
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the server's input, gives it a moment to stop by itself, then kills what is left. */
    @Override
    public void close() {
        Exec.endAfterInput(process, Duration.ofSeconds(5));
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        transcript.close();
    }
}
