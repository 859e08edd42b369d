package lab.continuationreplay.cases.clients;

/**
 * How a client cell reaches its server, as expectations and the clients' words name it. The runner's
 * {@code core.servers.Transport} says the same with the same labels; this one belongs to the cases and the checker,
 * which do not depend on the runner.
 */
public enum ClientTransport {
    STDIO("stdio"),
    HTTP("http");

    private final String label;

    ClientTransport(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
