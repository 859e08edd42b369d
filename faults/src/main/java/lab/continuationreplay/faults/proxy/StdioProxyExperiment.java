package lab.continuationreplay.faults.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A faulty stdio intermediary ({@link StdioProxyMain}, its own JVM) between the driver and each SDK's server drops,
 * duplicates, delays, reorders and truncates frames both ways; the driver recovers by status and by retrying the same
 * continuation. The rows must show every operation applied at most once and no effect the client was told about lost.
 */
public final class StdioProxyExperiment implements FaultExperiment {
    public static final String NAME = "stdio-proxy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "faulty stdio proxy (drop, duplicate, delay, reorder, truncate): recover by status or retry, no duplicate, no lost effect";
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        java.util.Random random = session.random(NAME);
        for (ServerKind sdk : session.sdks()) {
            ProxyRun run = new ProxyRun(session, sdk, session.folder(NAME, sdk.label()), random.nextLong());
            figures.set(sdk.label(), run.drive(session.size(4, 80)));
        }
        return new ExperimentReport(NAME, title(), true, figures, List.of(), 0);
    }
}
