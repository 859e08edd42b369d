package lab.continuationreplay.server.http;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Gives each request a way to end its connection with no reply at all ({@code close-after-commit}): the lab's model of
 * a reply lost in the network while the server lives on. Only Tomcat's own request can do that (the servlet API can
 * only send some status), so the hook is attached here, below the servlet layer; {@link GateServlet} calls it once the
 * SDK has finished with a request whose reply is to be lost, so nothing of that reply has been written.
 */
final class DropConnectionValve extends ValveBase {
    DropConnectionValve() {
        super(true);
    }

    /** Request attribute: a {@link Runnable} that closes the connection without writing what is not yet sent. */
    static final String CLOSE_NOW = "lab.closeNow";

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        org.apache.coyote.Request coyote = request.getCoyoteRequest();
        request.setAttribute(CLOSE_NOW, (Runnable) () -> coyote.action(ActionCode.CLOSE_NOW, null));
        getNext().invoke(request, response);
    }
}
