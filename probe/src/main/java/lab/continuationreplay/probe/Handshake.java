package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.core.wire.WireEnvelope;

/**
 * Which protocol the server speaks and the tool it lists: {@code server/discover} offering 2026-07-28, else the
 * {@code initialize} handshake of the earlier versions (a new process over stdio, whose first request fixes its era;
 * the same URL over HTTP, where each request names its version).
 */
final class Handshake {
    private final ProbeRunner r;

    Handshake(ProbeRunner runner) {
        this.r = runner;
    }

    /** initialize until the restarted server answers it (30 s at most), since it may take a while to listen. */
    void awaitInitialized(String check) {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                initialize(check, "the era found at the start");
                return;
            } catch (ProbeInputException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                r.pause(java.time.Duration.ofMillis(500));
            }
        }
    }

    /** The versions before 2026-07-28 the probe speaks, newest first: all that the official SDKs' servers accept. */
    static final List<String> LEGACY_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    /**
     * Which protocol the server speaks: {@code server/discover} offering 2026-07-28, else (over stdio) a new process
     * with the {@code initialize} handshake of the earlier versions, since a stdio process's first request fixes its era.
     */
    void negotiate() {
        Exchange discovered = r.connection.send(r.frame("server/discover", ProbeRunner.JSON.objectNode()));
        r.history.exchange("setup", "server/discover", discovered, false);
        JsonNode offered = discovered.reply() == null ? null : discovered.reply().path("result").path("supportedVersions");
        if (offered != null && offered.isArray()) {
            for (JsonNode offeredVersion : offered) {
                if (offeredVersion.asText().equals(WireEnvelope.PROTOCOL_VERSION)) {
                    return;
                }
            }
        }
        if (discovered.reply() == null && !r.connection.alive()) {
            throw new ProbeInputException("the server does not answer: " + discovered.failure() + " (check " + targetOption() + ")");
        }
        String modern = discovered.reply() == null ? discovered.failure() : discovered.reply().has("error")
                ? discovered.reply().path("error").path("code").asInt() + " " + discovered.reply().path("error").path("message").asText()
                : "it offers " + offered;
        r.legacy = true;
        if (r.again == null) {
            // over HTTP each request names its version: the same server is asked again, with initialize
            r.history.note("setup", "legacy", "server/discover: " + modern + "; initialize");
        } else {
            ((StdioConnection) r.connection).kill();
            r.connection.close();
            r.connection = r.again.apply("server-initialize");
            r.answering(r.connection);
            r.history.note("setup", "legacy", "server/discover: " + modern + "; a new process, with initialize");
        }
        r.version = initialize("setup", modern);
    }

    String targetOption() {
        return r.options.target() instanceof ProbeOptions.Target.Url ? "--url" : "--command";
    }

    String initialize(String check, String whyNotModern) {
        return initialize(check, whyNotModern, r.connection);
    }

    /** The handshake before 2026-07-28 on {@code on}: initialize, the r.version the server answers, notifications/initialized. */
    String initialize(String check, String whyNotModern, ProbeConnection on) {
        ObjectNode params = ProbeRunner.JSON.objectNode().put("protocolVersion", LEGACY_VERSIONS.get(0));
        ObjectNode capabilities = params.putObject("capabilities");
        capabilities.putObject("elicitation");
        capabilities.putObject("sampling");
        capabilities.putObject("roots").put("listChanged", false);
        params.putObject("clientInfo").put("name", "lab-probe").put("version", "0.1.0");
        Exchange initialized = on.send(r.frame("initialize", params));
        r.history.exchange(check, "initialize", initialized, false);
        String answered = initialized.reply() == null ? null : initialized.reply().path("result").path("protocolVersion").asText(null);
        if (answered == null || !LEGACY_VERSIONS.contains(answered)) {
            String answer = initialized.reply() == null ? initialized.failure() : initialized.reply().has("error")
                    ? initialized.reply().path("error").path("code").asInt() + " " + initialized.reply().path("error").path("message").asText()
                    : "version " + answered;
            throw new ProbeInputException("the server speaks no protocol version lab probe knows (server/discover: " + whyNotModern
                    + "; initialize: " + answer + "); it knows 2026-07-28 and " + String.join(", ", LEGACY_VERSIONS)
                    + " (check " + targetOption() + ")");
        }
        ObjectNode notification = ProbeRunner.JSON.objectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized");
        String failure = on.notify(notification);
        if (failure != null) {
            throw new ProbeInputException("the server answered initialize with " + answered + ", then refused notifications/initialized: "
                    + failure + " (check " + targetOption() + ")");
        }
        return answered;
    }

    /** tools/list: the server speaks 2026-07-28 and lists the tool. */
    JsonNode discover() {
        List<String> names = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 10; page++) {
            ObjectNode params = ProbeRunner.JSON.objectNode();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            Exchange listed = r.connection.send(r.frame("tools/list", params));
            r.history.exchange("setup", "tools/list", listed, false);
            if (listed.reply() == null) {
                throw new ProbeInputException("the server does not answer tools/list: " + listed.failure()
                        + " (check --url or --command)");
            }
            JsonNode error = listed.reply().path("error");
            if (!error.isMissingNode()) {
                throw new ProbeInputException(error.path("code").asInt() == -32022
                        ? "the server does not negotiate protocol 2026-07-28 (-32022 " + error.path("message").asText() + ")"
                        : "tools/list failed: " + error.path("code").asInt() + " " + error.path("message").asText());
            }
            for (JsonNode tool : listed.reply().path("result").path("tools")) {
                names.add(tool.path("name").asText());
                if (r.options.tool().equals(tool.path("name").asText())) {
                    return tool;
                }
            }
            cursor = listed.reply().path("result").path("nextCursor").asText(null);
            if (cursor == null) {
                break;
            }
        }
        throw new ProbeInputException("the server has no tool '" + r.options.tool() + "' (--tool); it lists " + names);
    }
}
