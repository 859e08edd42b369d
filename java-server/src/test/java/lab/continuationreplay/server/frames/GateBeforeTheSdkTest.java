package lab.continuationreplay.server.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The gate in front of the SDK's real stdio transport: its refusals read as the SDK's own, and nothing refused reaches a handler. */
class GateBeforeTheSdkTest {
    /** Records what reaches the handler and answers every request with an empty result. */
    static final class Handler implements McpRequestManager {
        final List<Object> handled = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Mono<McpTransportResponse> handle(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
            handled.add(request.id());
            return Mono.just(McpTransportResponse.result(JsonRpc.JSONRPCResponse.result(request.id(), Map.of())));
        }

        @Override
        public Mono<McpTransportResponse> handleBlocking(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
            return handle(context, request);
        }

        @Override
        public Mono<Void> handleNotification(McpTransportContext context, JsonRpc.JSONRPCNotification notification) {
            handled.add(notification.method());
            return Mono.empty();
        }
    }

    /** stdout as lines, so end of input can wait for the replies it expects. */
    static final class Lines extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            bytes.write(b);
            notifyAll();
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
            notifyAll();
        }

        synchronized List<String> await(int count, Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (lines().size() < count && System.nanoTime() < deadline) {
                wait(50);
            }
            return lines();
        }

        synchronized List<String> lines() {
            String text = bytes.toString(StandardCharsets.UTF_8);
            return text.isEmpty() ? List.of() : List.of(text.split("\n"));
        }
    }

    record Served(List<String> stdout, List<Object> handled) {}

    /** Runs the SDK's transport over {@code input}, optionally behind the gate; end of input waits for {@code replies} lines. */
    static Served serve(String input, boolean gated, int replies) throws InterruptedException {
        Handler handler = new Handler();
        Lines out = new Lines();
        InputStream raw = new FilterInputStream(new ByteArrayInputStream(input.getBytes(StandardCharsets.ISO_8859_1))) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    try {
                        out.await(replies, Duration.ofSeconds(10));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return n;
            }
        };
        StdoutLines stdout = new StdoutLines(out);
        InputStream in = gated ? new FrameGate(raw, FrameGateTest.MAPPER, stdout) : raw;
        new StdioMcpTransport(handler, FrameGateTest.MAPPER, in, stdout.writer()).start().block(Duration.ofSeconds(30));
        return new Served(out.lines(), List.copyOf(handler.handled));
    }

    /** {@code sdkRefuses} is refused by the SDK itself; {@code gateRefuses} is the same class of problem the SDK lets through. */
    static void assertSameRefusal(String sdkRefuses, String gateRefuses) throws InterruptedException {
        Served sdk = serve(sdkRefuses + "\n", false, 1);
        Served gate = serve(gateRefuses + "\n", true, 1);
        assertEquals(1, sdk.stdout().size(), sdk.toString());
        assertEquals(sdk.stdout(), gate.stdout(), gateRefuses);
        assertEquals(List.of(), gate.handled(), gateRefuses);
    }

    @Test
    void refusalsAreTheSdksOwnForTheSameClassOfProblem() throws InterruptedException {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{}}";
        assertSameRefusal("garbage", call + "}");
        assertSameRefusal("garbage", call.replace("tools/call", "tools/\u00ff\u00fe")); // as ISO-8859-1 bytes: invalid UTF-8
        assertSameRefusal("[1]", "[1]");
        assertSameRefusal("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"tools/call\"}", call.replace("\"2.0\"", "2.0"));
        assertSameRefusal("{\"jsonrpc\":\"1.0\",\"id\":\"s\",\"method\":\"x\"}", "{\"jsonrpc\":2.0,\"id\":\"s\",\"method\":\"x\"}");
        assertSameRefusal("{\"jsonrpc\":\"1.0\",\"id\":1.5,\"method\":\"x\"}", "{\"jsonrpc\":2.0,\"id\":1.5,\"method\":\"x\"}");
        assertSameRefusal("{\"jsonrpc\":\"1.0\",\"method\":\"x\"}", "{\"jsonrpc\":2.0,\"method\":\"x\"}");
    }

    @Test
    void withoutTheGateTheSdkHandlesWhatTheGateRefuses() throws InterruptedException {
        // the finding the gate fixes, pinned: if the SDK ever refuses these itself, this test says so
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{}}";
        assertEquals(List.of(7), serve(call + "}\n", false, 1).handled());
        assertEquals(List.of(7), serve(call.replace("\"2.0\"", "2.0") + "\n", false, 1).handled());
        assertEquals(List.of(7), serve(call.replace("{}", "{\"s\":\"\u00ff\"}") + "\n", false, 1).handled());
    }

    @Test
    void validFramesReachTheHandlerRefusedOnesNever() throws InterruptedException {
        String input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"m\"}}\n"
                + "{\"jsonrpc\":2.0,\"id\":3,\"method\":\"m\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"m\",\"params\":{\"s\":\"\u00ff\"}}\n"
                + "\r\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"m\"}\n";
        Served served = serve(input, true, 5);
        assertEquals(List.of(1, "notifications/x", 5), served.handled());
        List<String> expected = List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
                FrameGateTest.PARSE_ERROR.strip(),
                FrameGateTest.invalidWithId("3").strip(),
                FrameGateTest.PARSE_ERROR.strip(),
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}");
        assertEquals(expected.stream().sorted().toList(), served.stdout().stream().sorted().toList());
    }
}
