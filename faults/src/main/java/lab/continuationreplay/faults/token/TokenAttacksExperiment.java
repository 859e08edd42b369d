package lab.continuationreplay.faults.token;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.vectors.ExactJson;

/**
 * requestState attacks: mutated, truncated, extended and re-encoded tokens, tokens of another key, principal, tool,
 * arguments or SDK, expired tokens, non-string tokens and tokens forged with the key but wrong claims. Every one must
 * get the SDK's state refusal and add no row.
 */
public final class TokenAttacksExperiment implements FaultExperiment {
    public static final String NAME = "token-attacks";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "requestState attacks (tampered, foreign, expired, forged, non-string): zero accepted, zero rows";
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        List<String> findings = new ArrayList<>();
        boolean passed = true;
        Map<ServerKind, ServerProcess> mains = new EnumMap<>(ServerKind.class);
        List<ServerProcess> extra = new ArrayList<>();
        try {
            // One main server per SDK, each minting the tokens the other SDK's server is attacked with.
            for (ServerKind kind : List.of(ServerKind.JAVA, ServerKind.TYPESCRIPT)) {
                Path folder = session.sdks().contains(kind) ? session.folder(NAME, kind.label()) : session.folder(NAME, "minter-" + kind.label());
                mains.put(kind, FaultServers.start(session.home(), kind, WireSettings.matrix(folder.resolve("main.sqlite3"), "alice"),
                        folder, "main", ServerProcess.READ_TIMEOUT));
            }
            java.util.Random random = session.random(NAME);
            for (ServerKind sdk : session.sdks()) {
                ServerKind other = sdk == ServerKind.JAVA ? ServerKind.TYPESCRIPT : ServerKind.JAVA;
                TokenAttackRun run = new TokenAttackRun(session, sdk, session.folder(NAME, sdk.label()), random, mains.get(sdk),
                        mains.get(other), extra);
                ObjectNode sdkFigures = run.attack(session.size(150, 2000));
                figures.set(sdk.label(), sdkFigures);
                findings.addAll(run.findings());
                passed &= run.passed();
            }
        } finally {
            extra.forEach(ServerProcess::close);
            mains.values().forEach(ServerProcess::close);
        }
        return new ExperimentReport(NAME, title(), passed, figures, findings, 0);
    }
}
