package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.history.Format;

/**
 * What one strict run found: every check's outcome in {@link StrictCheckId} order, and where {@code strict.json} was
 * written. Any failure fails the run ({@link #exitStatus()} 1); a check that did not run is listed with its reason
 * and fails nothing.
 */
public record StrictReport(URI target, boolean bearer, boolean otherBearer, Optional<Duration> stateTtl, Instant started,
        Instant finished, List<StrictCheckResult> checks, Path file) {
    public static final String FILE_NAME = "strict.json";

    public StrictReport {
        checks = List.copyOf(checks);
    }

    public StrictCheckResult result(StrictCheckId check) {
        return checks.stream().filter(c -> c.check() == check).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(check.id() + " is not in this report"));
    }

    public long count(StrictOutcome outcome) {
        return checks.stream().filter(c -> c.outcome() == outcome).count();
    }

    public boolean failed() {
        return count(StrictOutcome.FAIL) > 0;
    }

    /** 1 when any check failed, else 0 (checks that did not run do not count). */
    public int exitStatus() {
        return failed() ? 1 : 0;
    }

    /** {@code 15 passed, 0 failed, 1 departing from a SHOULD, 2 not run}: the run in one line (no departures, no words for them). */
    public String summary() {
        String departs = count(StrictOutcome.DEPARTS) == 0 ? "" : ", " + count(StrictOutcome.DEPARTS) + " departing from a SHOULD";
        return count(StrictOutcome.PASS) + " passed, " + count(StrictOutcome.FAIL) + " failed" + departs + ", "
                + count(StrictOutcome.NOT_RUN) + " not run";
    }

    /** The document written to {@code strict.json}: tokens appear only as whether they were given. */
    ObjectNode toJson() {
        ObjectNode document = Format.STRICT.document();
        document.put("target", target.toString());
        document.put("fixture", StrictCheck.FIXTURE);
        document.put("bearer", bearer ? "given" : "none");
        document.put("other_bearer", otherBearer ? "given" : "none");
        if (stateTtl.isPresent()) {
            document.put("state_ttl_seconds", stateTtl.get().toSeconds());
        } else {
            document.putNull("state_ttl_seconds");
        }
        document.put("started", started.toString());
        document.put("finished", finished.toString());
        ObjectNode summary = document.putObject("summary");
        for (StrictOutcome outcome : StrictOutcome.values()) {
            summary.put(outcome.name().toLowerCase(java.util.Locale.ROOT), count(outcome));
        }
        document.put("passed", !failed());
        ArrayNode list = document.putArray("checks");
        for (StrictCheckResult result : checks) {
            ObjectNode check = list.addObject();
            check.put("id", result.check().id());
            check.put("meaning", result.check().meaning());
            check.put("level", result.check().level().name());
            if (result.check().section() != StrictCheckId.Section.NONE) {
                check.put("spec_section", StrictCheckId.SPEC_PAGE + ", " + result.check().section().title());
            }
            check.put("outcome", result.outcome().word());
            check.put("reason", result.reason());
            ArrayNode probes = check.putArray("probes");
            for (Probe probe : result.probes()) {
                ObjectNode p = probes.addObject();
                p.put("probe", probe.label());
                p.put("reply", probe.reply().kind().id());
                p.put("refusal", probe.reply().refused());
                if (probe.reply().httpStatus() > 0) {
                    p.put("http_status", probe.reply().httpStatus());
                } else {
                    p.putNull("http_status");
                }
                p.put("detail", probe.reply().detail() == null ? "" : probe.reply().detail());
                p.put("acceptable", probe.acceptable());
            }
        }
        return document;
    }
}
