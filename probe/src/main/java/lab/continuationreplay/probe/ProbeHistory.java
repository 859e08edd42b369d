package lab.continuationreplay.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.vectors.ExactJson;

/**
 * What a probe run leaves, and nothing that is a verdict: {@code plan.json} (the target, tool, arguments template,
 * observer; no header value and no environment), and the folder {@code run/} with {@code events.jsonl} (every
 * exchange with its request and reply frames, every observer reading with its time, every discarded reply, kill and
 * restart, in order), the transcripts byte for byte, the server's stderr and the kept database copies. When the run
 * ends, {@code history.jsonl} records the hashes of {@code run/}. The checker derives {@code probe.json} from these.
 */
final class ProbeHistory {
    static final String PLAN = "plan.json";
    static final String RUN = "run";
    static final String EVENTS = "events.jsonl";

    private final Path out;
    private final Path run;
    private final ProbeClock clock;
    private int sequence;

    ProbeHistory(Path out, ProbeClock clock) {
        this.out = out;
        this.run = out.resolve(RUN);
        this.clock = clock;
    }

    Path run() {
        return run;
    }

    void plan(ObjectNode plan) {
        write(out.resolve(PLAN), ExactJson.mapper().writerWithDefaultPrettyPrinter(), Format.PROBE_PLAN.stamp(plan), false);
    }

    /** One exchange of check {@code check}, in its {@code role} (round-1, final, retry, race, ...); answers its seq. */
    int exchange(String check, String role, Exchange exchange, boolean discarded) {
        ObjectNode event = event(check, "exchange");
        event.put("role", role);
        event.put("at_ms", exchange.atMs());
        event.put("elapsed_ms", exchange.elapsedMs());
        event.set("request", exchange.request());
        if (exchange.reply() != null) {
            event.set("reply", exchange.reply());
        } else {
            event.putNull("reply");
            event.put("failure", exchange.failure());
        }
        event.put("discarded", discarded);
        append(event);
        return event.path("seq").asInt();
    }

    /** r1's GET with {@code Last-Event-ID}: its status, every reply to the call it carried, its body abridged or its failure. */
    void resumed(String check, String lastEventId, HttpConnection.Resumed resumed) {
        ObjectNode event = event(check, "resumed");
        event.put("at_ms", resumed.atMs());
        event.put("elapsed_ms", resumed.elapsedMs());
        event.put("last_event_id", lastEventId);
        event.put("status", resumed.status());
        com.fasterxml.jackson.databind.node.ArrayNode deliveries = event.putArray("deliveries");
        resumed.deliveries().forEach(deliveries::add);
        event.put("body", resumed.text());
        if (resumed.failure() != null) {
            event.put("failure", resumed.failure());
        }
        append(event);
    }

    void observe(String check, String phase, EffectObserver.Reading reading) {
        append(reading(check, phase, reading));
    }

    /** A reading an effect-counting tool answered in the exchange {@code exchangeSeq}. */
    void observeByTool(String check, String phase, EffectObserver.Reading reading, int exchangeSeq) {
        ObjectNode event = reading(check, phase, reading);
        event.put("exchange_seq", exchangeSeq);
        append(event);
    }

    private ObjectNode reading(String check, String phase, EffectObserver.Reading reading) {
        ObjectNode event = event(check, "observe");
        event.put("phase", phase);
        event.put("at_ms", clock.millis());
        if (reading.value() != null) {
            event.put("value", reading.value());
        } else {
            event.putNull("value");
        }
        if (reading.error() != null) {
            event.put("error", reading.error());
        }
        if (reading.copy() != null) {
            event.put("copy", reading.copy());
        }
        return event;
    }

    /** Something the probe did to the server or decided: a kill, a restart, a check it could not play and why. */
    void note(String check, String what, String detail) {
        ObjectNode event = event(check, what);
        event.put("at_ms", clock.millis());
        event.put("detail", detail);
        append(event);
    }

    /** Records the hashes of {@code run/}: after this the folder is evidence and is never written again. */
    void seal(String machineryError) {
        try {
            RunLog.append(out.resolve(lab.continuationreplay.history.Layout.HISTORY), run, machineryError);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ObjectNode event(String check, String kind) {
        ObjectNode event = Format.PROBE_EVENT.document();
        event.put("seq", ++sequence);
        event.put("check", check);
        event.put("kind", kind);
        return event;
    }

    private synchronized void append(ObjectNode event) {
        write(run.resolve(EVENTS), ExactJson.mapper().writer(), event, true);
    }

    private static void write(Path file, com.fasterxml.jackson.databind.ObjectWriter writer, ObjectNode node, boolean append) {
        try {
            Files.createDirectories(file.getParent());
            String text = writer.writeValueAsString(node) + "\n";
            if (append) {
                Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } else {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
