package lab.continuationreplay.probe.proxy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/** One session of the proxy: started, ended by whatever comes first, then closed with its transcript whole. */
interface ProxySession {
    /** Starts relaying; bad input (a command that cannot start, a port that is taken) is a ProbeInputException. */
    void start() throws IOException;

    /** Completed once, with how the session ended: {@code end_of_input}, {@code server_exit}, {@code calls}, ... */
    CompletableFuture<String> ending();

    /**
     * SIGTERM came while the session was already ending: the server is ended at once, so the history is sealed before
     * the client's SIGKILL (clients allow a second or a few after their SIGTERM).
     */
    default void hurry() {
    }

    /** Stops relaying within {@code graceMs}, closes the transcript; answers the server's exit status, or null. */
    Integer close(long graceMs) throws InterruptedException;
}
