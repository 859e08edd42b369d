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
import lab.continuationreplay.core.wire.ServerWire;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.servers.Transport;
import java.util.Set;
import lab.continuationreplay.vectors.ExactJson;

/**
 * requestState attacks: mutated, truncated, extended and re-encoded tokens, tokens of another key, principal, tool,
 * arguments or SDK, expired tokens, non-string tokens and tokens forged with the key but wrong claims. Every one must
 * get the SDK's state refusal and add no row. Over HTTP the same attacks go in POSTs, followed by the bearer attacks
 * ({@link BearerAttackRun}).
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
    public Set<Transport> transports() {
        return Set.of(Transport.STDIO, Transport.HTTP);
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        List<String> observations = new ArrayList<>();
        Map<ServerKind, ServerWire> mains = new EnumMap<>(ServerKind.class);
        List<ServerWire> extra = new ArrayList<>();
        try {
            // One main server per SDK, each minting the tokens the other SDKs' servers are
            // attacked with; an SDK not under test in this run still mints (a "minter-" folder).
            for (ServerKind kind : ServerKind.SDKS) {
                Path folder = session.sdks().contains(kind) ? session.folder(NAME, session.scope(kind))
                        : session.folder(NAME, "minter-" + session.scope(kind));
                mains.put(kind, FaultServers.start(session, kind, WireSettings.matrix(folder.resolve("main.sqlite3"), "alice"),
                        folder, "main", ServerProcess.READ_TIMEOUT));
            }
            java.util.Random random = session.random(NAME);
            for (ServerKind sdk : session.sdks()) {
                Map<ServerKind, ServerWire> others = new EnumMap<>(mains);
                others.remove(sdk);
                Path folder = session.folder(NAME, session.scope(sdk));
                TokenAttackRun run = new TokenAttackRun(session, sdk, folder, random, mains.get(sdk), others, extra);
                ObjectNode sdkFigures = run.attack(session.size(150, 2000));
                figures.set(sdk.label(), sdkFigures);
                if (session.transport() == Transport.HTTP) {
                    BearerAttackRun bearer = new BearerAttackRun(sdk, session.history(), session.scope(sdk) + " bearer", folder, random, (HttpServerProcess) mains.get(sdk),
                            session.credentials());
                    figures.set(sdk.label() + " bearer", bearer.attack(session.size(2, 10)));
                    observations.addAll(bearer.observations());
                }
            }
        } finally {
            extra.forEach(ServerWire::close);
            mains.values().forEach(ServerWire::close);
        }
        return new ExperimentReport(NAME, title(), true, figures, List.of(), observations, session.transport().label(), 0);
    }
}
