package lab.continuationreplay.server.http;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * The body of every error Tomcat or the SDK reports with {@code sendError} (a path other than {@code /mcp}, a GET the
 * SDK refuses, an exception): one plain line with the status, nothing else. Tomcat's own page names the server and its
 * exact version, which tells a caller which published vulnerabilities to try, and may quote an exception's message;
 * nothing here needs either. Replaces, not adds to, Tomcat's report: {@link HttpMcpServer} registers it under the
 * host's error report valve class, so the host does not add its default one.
 */
final class PlainErrorReport extends ErrorReportValve {
    PlainErrorReport() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // The same conditions as Tomcat's report: an error, nothing written yet, reported once, and a writable connection.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean();
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        try {
            response.setContentType("text/plain");
            response.setCharacterEncoding("utf-8");
            PrintWriter writer = response.getReporter();
            if (writer != null) {
                writer.write(text(status) + "\n");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response was taken over meanwhile; the status line is all it gets.
        }
    }

    /** The same words as the TypeScript fixture's plain answers where there is one. */
    static String text(int status) {
        return switch (status) {
            case 400 -> "bad request";
            case 404 -> "not found";
            case 405 -> "method not allowed";
            case 500 -> "internal error";
            case 503 -> "unavailable";
            default -> "error " + status;
        };
    }
}
