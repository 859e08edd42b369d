package lab.continuationreplay.probe.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import lab.continuationreplay.probe.check.ProbeCheck;
import lab.continuationreplay.vectors.ExactJson;

/** {@code verify DIR} of a probe run: every verdict derived again from the history, and whether probe.json agrees. */
public final class ProbeVerify {
    private ProbeVerify() {}

    /** What verify prints for a probe folder; {@code ok} is its exit: no problem and no failed check. */
    public record Report(ObjectNode json, boolean ok) {}

    public static Report of(Path folder) throws IOException {
        ProbeCheck.Judgement judgement = ProbeCheck.verify(folder);
        ObjectNode report = ExactJson.mapper().createObjectNode();
        ObjectNode checks = report.putObject("probe");
        judgement.results().forEach(r -> checks.put(r.check(), r.verdict().label() + (r.kind() == null ? "" : " " + r.kind().label())));
        report.set("problems", ExactJson.mapper().valueToTree(judgement.problems()));
        boolean ok = judgement.problems().isEmpty() && !judgement.anyFailed();
        report.put("ok", ok);
        return new Report(report, ok);
    }
}
