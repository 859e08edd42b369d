package lab.continuationreplay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.checker.CaseFacts;
import lab.continuationreplay.checker.Outcome;
import lab.continuationreplay.checker.Predicate;
import lab.continuationreplay.checker.WireFacts;
import lab.continuationreplay.matrix.run.CaseRun;
import lab.continuationreplay.matrix.run.CaseSetting;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "lost-reply: the story of case 03 on a real server. The commit's reply is lost (the server exits 70 after"
                    + " committing), the client only knows 'unknown', an authoritative status shows the stored result,"
                    + " and an explicit identical replay returns it without a second issue. Prints a JSON summary."
        })
final class DemoCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DEMO", description = "lost-reply")
    String demo;

    @Option(names = "--output-dir", required = true, description = "Where the transcripts and the database go.")
    Path outputDir;

    @Option(names = "--sdk", description = "The SDK column whose server plays it: java, typescript, python or go (default: java).")
    String sdk = "java";

    @Override
    public Integer call() throws Exception {
        if (!"lost-reply".equals(demo)) {
            throw new IllegalArgumentException("unknown demo '" + demo + "' (lost-reply)");
        }
        ServerKind kind = ServerKind.fromLabel(sdk);
        Path folder = outputDir.resolve(kind.label());
        if (Files.exists(folder)) {
            throw new IllegalArgumentException(folder + " already exists; a demo never overwrites evidence");
        }
        CaseSpec lostReply = Cases.spec(CaseId.LOST_REPLY_THEN_EXPLICIT_REPLAY);
        String error = CaseRun.execute(lostReply.script(), folder, CaseSetting.stdio(kind, LabHome.resolve())).machineryError();
        // The story is told from the history, by the checker's own reading of it.
        CaseFacts facts = CaseFacts.read(folder);
        ObjectNode summary = summary(kind, lostReply, facts);
        if (error != null) {
            summary.put("machinery_error", error);
        }
        Streams.stdout().println(ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        Streams.stdout().flush();
        boolean story = error == null && Predicate.violations(lostReply, facts, kind.label()).isEmpty();
        return story ? 0 : 1;
    }

    static ObjectNode summary(ServerKind kind, CaseSpec spec, CaseFacts facts) {
        ObjectNode summary = ExactJson.mapper().createObjectNode();
        summary.put("sdk", kind.label());
        List<WireFacts.Call> calls = facts.wire().calls();
        summary.put("first_round", calls.isEmpty() || !calls.get(0).answered() ? "no_reply"
                : calls.get(0).asReply().result().path("resultType").asText());
        JsonNode outcome = Outcome.derive(spec, facts);
        summary.put("transport", outcome.path("transport").asText());
        summary.put("crash_exit", outcome.path("crash_exit").asInt());
        WireFacts.Call status = facts.wire().statusCalls().isEmpty() ? null : facts.wire().statusCalls().get(0);
        if (status != null && status.answered()) {
            JsonNode structured = status.asReply().structured();
            ObjectNode s = summary.putObject("status");
            for (String key : new String[] {"state", "authoritative", "freshWriteAuthorized", "matchingIds", "storedResult"}) {
                s.set(key, structured.path(key));
            }
        }
        summary.put("consumer_action", outcome.path("consumer_action").asText());
        List<WireFacts.Call> continuations = facts.wire().continuations();
        if (continuations.size() > 1 && continuations.get(1).answered()) {
            JsonNode replay = continuations.get(1).asReply().structured();
            summary.putObject("replay").put("replayed", replay.path("replayed").asBoolean()).put("result", replay.path("result").asText());
        }
        summary.put("issues", facts.db().issues().size());
        summary.put("operations", facts.db().operations().size());
        ArrayNode exits = summary.putArray("process_exits");
        facts.exits().forEach(e -> exits.addObject().put("name", e.name()).put("status", e.status()));
        return summary;
    }
}
