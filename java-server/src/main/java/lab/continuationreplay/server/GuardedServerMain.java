package lab.continuationreplay.server;

import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.server.conformance.FixtureStates;
import lab.continuationreplay.server.conformance.Fixtures;
import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.tools.CallContext;
import lab.continuationreplay.server.tools.GuardOnDemand;
import lab.continuationreplay.server.tools.GuardedTools;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.stdio.WireStdout;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;

/**
 * The guarded Java server: {@code create_guarded_issue} and {@code get_operation_status} over stdio, or over
 * Streamable HTTP with {@code --http PORT}, configured only by its {@code WIRE_*} environment. Over stdio, stdout is
 * the wire; in both modes logs go to stderr. {@code --http PORT --conformance} adds the official conformance suite's
 * fixtures beside the guarded tools (docs/java-server.md, "Conformance profile").
 */
public final class GuardedServerMain {
    static final String NAME = "continuation-replay-java-guarded";
    static final int BAD_CONFIGURATION = 2;

    private GuardedServerMain() {}

    public static void main(String[] args) {
        java.io.OutputStream wire = WireStdout.claim("java-server");
        HttpMode mode;
        GuardOnDemand guard;
        GuardedTools tools;
        List<McpSyncTool> served;
        List<McpFeature> features = List.of();
        try {
            mode = HttpMode.of(args, System.getenv());
            TrustedEnvironment env = mode.environment;
            Optional<LabFault> fault = env.fault();
            SealedRequestState sealer = new SealedRequestState(env.stateKey(), env.requestStateTtl(), NAME);
            guard = new GuardOnDemand(new GuardOnDemand.Opener() {
                @Override
                public IssueLedger openLedger() throws SQLException {
                    return IssueLedger.open(env.ledger(), env.backendId());
                }

                @Override
                public IssueGuard guardOn(IssueLedger ledger, String principal) {
                    return new IssueGuard(config(env, principal), ledger, fault.map(LabFault::hook).orElse(FaultHook.NONE));
                }
            });
            String firstPrincipal;
            CallContext calls;
            if (mode.http()) {
                // Every principal's configuration is checked now, not on its first call.
                List<String> principals = mode.principals.orElseThrow().all();
                principals.forEach(principal -> config(env, principal));
                firstPrincipal = principals.get(0);
                calls = CallContext.fromTransport(mode.closeAfterCommit);
            } else {
                firstPrincipal = env.principal();
                calls = CallContext.fixed(firstPrincipal);
            }
            tools = new GuardedTools(guard, sealer, fault, calls, StdioServer.MAPPER);
            served = new ArrayList<>(tools.tools());
            if (mode.conformance.isPresent()) {
                // The fixtures seal with the same key and construction as the guarded tools; only their clock (real
                // time) and TTL are the profile's own.
                SealedRequestState fixtureSealer = new SealedRequestState(env.stateKey(),
                        mode.conformance.get().stateTtlSeconds(), NAME);
                Fixtures fixtures = new Fixtures(new FixtureStates(fixtureSealer, Clock.systemUTC()), calls,
                        StdioServer.MAPPER);
                served.addAll(fixtures.tools());
                features = fixtures.features();
            }
            openNowIfStorageAllows(guard, firstPrincipal);
        } catch (HttpMode.CommandLineError e) {
            System.err.println(e.getMessage());
            System.exit(BAD_CONFIGURATION);
            return;
        } catch (Exception e) {
            System.err.println("java-server: " + e.getMessage());
            System.exit(BAD_CONFIGURATION);
            return;
        }
        mode.serve(NAME, served, features, wire, guard);
    }

    private static GuardConfig config(TrustedEnvironment env, String principal) {
        return new GuardConfig(principal, env.backendId(), env.clockEpoch(), env.authorityTtl(), env.replayRetentionTtl(),
                env.fingerprintKey());
    }

    /**
     * A wrong configuration (a file bound to another backend, say) stops the server now; a storage failure (a
     * read-only or full disk) does not: the server serves and answers {@code ledger unavailable} until it clears.
     */
    private static void openNowIfStorageAllows(GuardOnDemand guard, String principal) {
        try {
            guard.get(principal);
        } catch (SQLException storage) {
            System.err.println("java-server: the ledger cannot be opened now (" + storage.getMessage()
                    + "); serving, and opening it again on each call");
        }
    }
}
