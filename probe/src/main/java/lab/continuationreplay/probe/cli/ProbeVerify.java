package lab.continuationreplay.probe.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import lab.continuationreplay.probe.check.ProbeCheck;
import lab.continuationreplay.probe.check.ProxyCheck;
import lab.continuationreplay.vectors.ExactJson;

/** {@code verify DIR} of a probe or proxy run: derived again from the history, and whether probe.json or proxy.json agrees. */
public final class ProbeVerify {
    private ProbeVerify() {}

    /** What verify prints for a probe folder; {@code ok} is its exit: no problem and no failed check. */
    public record Report(ObjectNode json, boolean ok) {}

    public static Report of(Path folder) throws IOException {
        if (ProxyCheck.isProxyRun(folder)) {
            return proxy(folder);
        }
        ProbeCheck.Judgement judgement = ProbeCheck.verify(folder);
        ObjectNode report = ExactJson.mapper().createObjectNode();
        report.put("protocol", judgement.protocol());
        ObjectNode checks = report.putObject("probe");
        judgement.results().forEach(r -> checks.put(r.check(), r.verdict().label() + (r.kind() == null ? "" : " " + r.kind().label())));
        report.set("problems", ExactJson.mapper().valueToTree(judgement.problems()));
        boolean ok = judgement.problems().isEmpty() && !judgement.anyFailed();
        report.put("ok", ok);
        return new Report(report, ok);
    }

    /** Whether a folder holds a probe or a proxy run, which this verifies. */
    public static boolean handles(Path folder) {
        return ProbeCheck.isProbeRun(folder) || ProxyCheck.isProxyRun(folder);
    }

    /** A lab proxy run: what the client did after the loss, derived again, and whether proxy.json agrees. */
    private static Report proxy(Path folder) throws IOException {
        ProxyCheck.Judgement judgement = ProxyCheck.verify(folder);
        ObjectNode report = ExactJson.mapper().createObjectNode();
        report.put("proxy", judgement.summary());
        if (judgement.document() != null) {
            report.set("client", judgement.document().path("client"));
        }
        report.set("problems", ExactJson.mapper().valueToTree(judgement.problems()));
        report.put("ok", judgement.ok());
        return new Report(report, judgement.ok());
    }
}
