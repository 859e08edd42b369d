package lab.continuationreplay.core.wire;

/**
 * A server broke the stdio contract: it wrote a line to stdout that is not a JSON-RPC frame (a JVM warning, a stray
 * print). Not a transport failure: a script that expects a lost reply must not take this for one, so it stops the
 * script and names the process and the line.
 */
public final class ServerDefect extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** How much of the offending line the message quotes. */
    static final int QUOTED = 120;

    public ServerDefect(String message) {
        super(message);
    }

    static ServerDefect nonFrame(String process, String line) {
        String start = line.length() > QUOTED ? line.substring(0, QUOTED) + "..." : line;
        return new ServerDefect(process + " wrote a non-frame line to stdout: \"" + start + "\"");
    }
}
