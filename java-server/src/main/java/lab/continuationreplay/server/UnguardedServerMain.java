package lab.continuationreplay.server;

import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.tools.CallContext;
import lab.continuationreplay.server.tools.UnguardedTools;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.stdio.WireStdout;
import lab.continuationreplay.store.ledger.IssueLedger;

/** The unguarded control server ({@code create_issue}), same environment and transports as the guarded one. */
public final class UnguardedServerMain {
    static final String NAME = "continuation-replay-java-unguarded";

    private UnguardedServerMain() {}

    public static void main(String[] args) {
        java.io.OutputStream wire = WireStdout.claim("java-server");
        HttpMode mode;
        UnguardedTools tools;
        IssueLedger ledger;
        try {
            mode = HttpMode.of(args, System.getenv());
            if (mode.conformance.isPresent()) {
                throw new IllegalArgumentException("the conformance profile belongs to the guarded server only");
            }
            TrustedEnvironment env = mode.environment;
            CallContext calls = mode.http() ? CallContext.fromTransport(mode.closeAfterCommit) : CallContext.fixed(env.principal());
            SealedRequestState sealer = new SealedRequestState(env.stateKey(), env.requestStateTtl(), NAME);
            ledger = IssueLedger.open(env.ledger(), env.backendId());
            tools = new UnguardedTools(ledger, sealer, calls, env.clockEpoch(), env.fault(), StdioServer.MAPPER);
        } catch (HttpMode.CommandLineError e) {
            System.err.println(e.getMessage());
            System.exit(GuardedServerMain.BAD_CONFIGURATION);
            return;
        } catch (Exception e) {
            System.err.println("java-server: " + e.getMessage());
            System.exit(GuardedServerMain.BAD_CONFIGURATION);
            return;
        }
        mode.serve(NAME, tools.tools(), wire, ledger);
    }
}
