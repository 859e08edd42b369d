package lab.continuationreplay.server.http;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.PrintWriter;
import java.io.Writer;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import lab.continuationreplay.server.frames.JsonRpcShape;
import lab.continuationreplay.server.frames.Rejection;
import lab.continuationreplay.server.frames.StrictUtf8;
import lab.continuationreplay.server.tools.CallContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a request must pass before the SDK's servlet sees it, in this order: a loopback {@code Host} and
 * {@code Origin} (403), a known bearer token (401; see {@link Principals} for the one exception), a server not
 * stopping and a free slot (503), a body of at most
 * 4 MiB (413), and the stdio server's frame rules on that body (strict UTF-8, exactly one JSON object,
 * {@code "jsonrpc":"2.0"}; 400 with the SDK's own JSON-RPC error). A refused request never reaches the SDK, so it can
 * have no effect.
 */
final class GateServlet extends HttpServlet {
    private static final Logger LOG = LoggerFactory.getLogger(GateServlet.class);

    private final HttpServlet sdk;
    private final Principals principals;
    private final LoopbackHosts hosts;
    private final Semaphore slots;
    private final int maxConcurrent;
    private final int maxBodyBytes;
    private volatile boolean stopping;
    private final McpJsonMapper mapper;

    GateServlet(HttpServlet sdk, Principals principals, LoopbackHosts hosts, HttpSettings settings, McpJsonMapper mapper) {
        this.sdk = sdk;
        this.principals = principals;
        this.hosts = hosts;
        this.slots = new Semaphore(settings.maxConcurrent());
        this.maxConcurrent = settings.maxConcurrent();
        this.maxBodyBytes = settings.maxBodyBytes();
        this.mapper = mapper;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        sdk.init(config);
    }

    @Override
    public void destroy() {
        sdk.destroy();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (!hosts.hostAllowed(request.getHeader("Host")) || !hosts.originAllowed(request.getHeader("Origin"))) {
            LOG.info("refused: foreign Host or Origin");
            plain(response, HttpServletResponse.SC_FORBIDDEN, "forbidden: Host and Origin must be this loopback server");
            return;
        }
        Optional<String> principal = principals.principalOf(request.getHeader("Authorization"));
        if (principal.isEmpty()) {
            LOG.info("refused: no or unknown bearer token");
            response.setHeader("WWW-Authenticate", "Bearer realm=\"mcp\"");
            plain(response, HttpServletResponse.SC_UNAUTHORIZED, "unauthorized: a known bearer token is required");
            return;
        }
        if (stopping) {
            // Only a request already read when the stop began gets here; a client may send it again to a new server.
            LOG.info("refused: the server is stopping");
            response.setHeader("Connection", "close");
            plain(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "stopping: the server is shutting down");
            return;
        }
        if (!slots.tryAcquire()) {
            LOG.warn("refused: every slot is taken");
            response.setHeader("Retry-After", "1");
            plain(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "busy: too many requests in progress, retry later");
            return;
        }
        Release release = new Release(slots);
        AtomicBoolean dropReply = new AtomicBoolean();
        try {
            request.setAttribute(CallContext.PRINCIPAL, principal.get());
            request.setAttribute(CallContext.DROP_CONNECTION, (Runnable) () -> dropReply.set(true));
            HttpServletRequest admitted = request;
            if ("POST".equals(request.getMethod())) {
                byte[] body = admitBody(request, response);
                if (body == null) {
                    return;
                }
                admitted = new BufferedBody(request, body);
            }
            // The SDK computes a JSON reply on this thread and writes it afterwards, so a drop asked for by the tool is
            // known before the first byte of the reply; the wrapper then discards the reply and the connection closes.
            sdk.service(admitted, new DroppableReply(response, dropReply));
            if (dropReply.get() && request.getAttribute(DropConnectionValve.CLOSE_NOW) instanceof Runnable closeNow) {
                LOG.info("close-after-commit: closing the connection without a reply");
                closeNow.run();
            }
        } finally {
            // The SDK answers asynchronously; the slot is busy until that reply is complete, not just until here.
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(release);
            } else {
                release.run();
            }
        }
    }

    /**
     * Admits no request from now on and waits up to {@code limit} for those inside to be answered (their slots back);
     * the number still inside when the limit passed, 0 if all were answered.
     */
    int drain(Duration limit) throws InterruptedException {
        stopping = true;
        // Holding every slot means no request is inside; a request that got past the flag just before it set is
        // waited for like any other.
        if (slots.tryAcquire(maxConcurrent, limit.toMillis(), TimeUnit.MILLISECONDS)) {
            return 0;
        }
        return maxConcurrent - slots.availablePermits();
    }

    /** The body if it may reach the SDK; else null, with the refusal already written. */
    private byte[] admitBody(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getContentLengthLong() > maxBodyBytes) {
            tooLarge(response);
            return null;
        }
        byte[] body = readAtMost(request.getInputStream(), maxBodyBytes);
        if (body == null) {
            tooLarge(response);
            return null;
        }
        Rejection rejection = switch (new StrictUtf8().classify(body, 0, body.length)) {
            case INVALID -> Rejection.parseError("not strict UTF-8");
            case BLANK -> Rejection.parseError("empty body");
            case CONTENT -> JsonRpcShape.check(body, 0, body.length);
        };
        if (rejection != null) {
            LOG.info("body refused ({} bytes): {}", body.length, rejection.reason());
            byte[] line = mapper.writeValueAsString(JsonRpc.JSONRPCResponse.error(rejection.id(),
                    new JsonRpc.JSONRPCResponse.JSONRPCError(rejection.code(), rejection.message())))
                    .getBytes(StandardCharsets.UTF_8);
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.setContentType("application/json");
            response.setContentLength(line.length);
            response.getOutputStream().write(line);
            return null;
        }
        return body;
    }

    private void tooLarge(HttpServletResponse response) throws IOException {
        LOG.info("refused: body over {} bytes", maxBodyBytes);
        // The rest of the body is not read; closing is cheaper than draining it.
        response.setHeader("Connection", "close");
        plain(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "body too large: at most " + maxBodyBytes + " bytes");
    }

    /** Null if the stream holds more than {@code limit} bytes. */
    private static byte[] readAtMost(InputStream in, int limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            if (out.size() + n > limit) {
                return null;
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static void plain(HttpServletResponse response, int status, String message) throws IOException {
        byte[] bytes = (message + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** Gives the slot back once, whichever of the async outcomes comes first. */
    private static final class Release implements AsyncListener, Runnable {
        private final Semaphore slots;
        private final AtomicBoolean done = new AtomicBoolean();

        Release(Semaphore slots) {
            this.slots = slots;
        }

        @Override
        public void run() {
            if (done.compareAndSet(false, true)) {
                slots.release();
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
            run();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            run();
        }

        @Override
        public void onError(AsyncEvent event) {
            run();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {}
    }

    /** A response whose body and flushes vanish once the reply is to be dropped, so nothing commits it. */
    private static final class DroppableReply extends HttpServletResponseWrapper {
        private final AtomicBoolean dropped;

        DroppableReply(HttpServletResponse response, AtomicBoolean dropped) {
            super(response);
            this.dropped = dropped;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (!dropped.get()) {
                return super.getOutputStream();
            }
            return new ServletOutputStream() {
                @Override
                public void write(int b) {}

                @Override
                public void write(byte[] b, int off, int len) {}

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    throw new IllegalStateException("a dropped reply is never written");
                }
            };
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            return dropped.get() ? new PrintWriter(Writer.nullWriter()) : super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            if (!dropped.get()) {
                super.flushBuffer();
            }
        }
    }

    /** The request with its body already read by the gate, so the SDK reads exactly the bytes that were checked. */
    private static final class BufferedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        BufferedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body is already buffered");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
