package lab.continuationreplay.matrix.run;

import java.nio.file.Path;
import lab.continuationreplay.core.ledger.RunLedger;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;

/**
 * Where a case's servers run: the SDK that serves every process a script does not place elsewhere, the lab's home, the
 * transport (over HTTP {@code credentials} issues each principal's bearer token; over stdio it is null) and the ledger
 * (SQLite in the case folder, or a PostgreSQL schema of the run's server).
 */
public record CaseSetting(ServerKind sdk, Path home, Transport transport, BearerCredentials credentials, RunLedger ledger) {
    public CaseSetting {
        if (transport == Transport.HTTP && credentials == null) {
            throw new IllegalArgumentException("a case over HTTP needs bearer credentials");
        }
    }

    /** Over stdio on a SQLite file in the case folder: what a single case ({@code lab demo}) runs on. */
    public static CaseSetting stdio(ServerKind sdk, Path home) {
        return new CaseSetting(sdk, home, Transport.STDIO, null, RunLedger.SQLITE);
    }

    /** The steps a case runs on in this setting. */
    public CaseStage stage() {
        return folder -> new CaseContext(folder, this);
    }
}
