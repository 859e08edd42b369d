package lab.continuationreplay.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A probe run's plan.json (what the user asked for, without a header value or an environment) and its --out rule. */
final class ProbePlan {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ProbePlan() {}

    /** The plan: what the user asked for, without a header value or an environment. */
    static ObjectNode plan(ProbeOptions options) {
        ObjectNode plan = JSON.objectNode();
        ObjectNode target = plan.putObject("target");
        if (options.target() instanceof ProbeOptions.Target.Command command) {
            target.put("kind", "stdio").put("command", command.command());
            command.otherEnvironment().keySet().stream().sorted().forEach(k -> target.withArray("other_environment_names").add(k));
        } else if (options.target() instanceof ProbeOptions.Target.Url url) {
            target.put("kind", "http").put("url", url.url().toString());
            url.headers().forEach(h -> target.withArray("header_names").add(h.name()));
            url.otherHeaders().forEach(h -> target.withArray("other_header_names").add(h.name()));
            if (url.restartCommand() != null) {
                target.put("restart_command", url.restartCommand());
            }
        }
        plan.put("tool", options.tool());
        plan.set("arguments", options.arguments());
        options.answers().keySet().stream().sorted().forEach(key -> plan.withArray("answered_keys").add(key));
        ObjectNode observed = plan.putObject("observer");
        if (options.observer() instanceof ProbeOptions.Observer.ShellCount shell) {
            observed.put("kind", "command").put("command", shell.command());
        } else if (options.observer() instanceof ProbeOptions.Observer.SqliteRows rows) {
            observed.put("kind", "sqlite").put("file", rows.database().toString()).put("table", rows.table());
        } else if (options.observer() instanceof ProbeOptions.Observer.ToolCount counting) {
            observed.put("kind", "tool").put("tool", counting.tool());
        } else {
            observed.put("kind", "none");
        }
        if (options.changedArguments() != null) {
            plan.set("changed_arguments", options.changedArguments());
        }
        options.tuning().ignoredKeys().forEach(k -> plan.withArray("ignore_keys").add(k));
        if (options.tuning().stateTtl() != null) {
            plan.put("state_ttl_s", options.tuning().stateTtl().toSeconds());
        }
        plan.put("request_timeout_ms", options.requestTimeout().toMillis());
        plan.put("race", ProbeRunner.RACE);
        ProbeRunner.CHECKS.forEach(c -> plan.withArray("checks").add(c));
        ProbeRunner.SINGLE_ROUND_CHECKS.forEach(c -> plan.withArray("single_round_checks").add(c));
        return plan;
    }

    static void requireNewOrEmpty(Path out) {
        if (Files.exists(out)) {
            if (!Files.isDirectory(out)) {
                throw new ProbeInputException("--out " + out + " is a file; give a new or empty folder");
            }
            try (Stream<Path> entries = Files.list(out)) {
                if (entries.findAny().isPresent()) {
                    throw new ProbeInputException("--out " + out + " is not empty; give a new or empty folder (a run is never overwritten)");
                }
            } catch (IOException e) {
                throw new ProbeInputException("--out " + out + ": " + e.getMessage(), e);
            }
        }
    }
}
