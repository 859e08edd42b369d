package lab.continuationreplay.faults.proxy;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import lab.continuationreplay.core.exec.Exec;

/**
 * A loopback stdio intermediary: {@code StdioProxyMain --seed N --plan PLAN [--log FILE] -- COMMAND...} starts
 * COMMAND (the environment passes through, stderr is inherited) and forwards newline-delimited frames between its own
 * stdin/stdout and the child's, dropping, duplicating, delaying, reordering or truncating frames as the seeded plan
 * says ({@link ProxyPlan}). With {@code --log}, every fault is one JSON line there, and a summary with the frames seen
 * per direction is written when both streams end. Bad arguments: one line on stderr, exit 2.
 */
public final class StdioProxyMain {
    static final int USAGE = 2;

    private StdioProxyMain() {}

    /** The parsed command line. */
    record Arguments(long seed, ProxyPlan plan, Path log, List<String> command) {}

    public static void main(String[] args) throws Exception {
        Arguments parsed;
        try {
            parsed = parse(args);
        } catch (IllegalArgumentException bad) {
            System.err.println("stdio-proxy: " + bad.getMessage());
            System.exit(USAGE);
            return;
        }
        System.exit(run(parsed, System.in, System.out));
    }

    static Arguments parse(String[] args) {
        Long seed = null;
        ProxyPlan plan = null;
        Path log = null;
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(require(value, "--seed"));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed '" + value + "' is not a whole number");
                    }
                    i++;
                }
                case "--plan" -> {
                    plan = ProxyPlan.parse(require(value, "--plan"));
                    i++;
                }
                case "--log" -> {
                    log = Path.of(require(value, "--log"));
                    i++;
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (--seed N --plan PLAN [--log FILE] -- COMMAND...)");
            }
        }
        if (i >= args.length || i + 1 >= args.length) {
            throw new IllegalArgumentException("missing the server command after --");
        }
        if (seed == null || plan == null) {
            throw new IllegalArgumentException("--seed and --plan are required");
        }
        return new Arguments(seed, plan, log, List.of(Arrays.copyOfRange(args, i + 1, args.length)));
    }

    private static String require(String value, String option) {
        if (value == null || value.equals("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    static int run(Arguments arguments, InputStream stdin, OutputStream stdout) throws Exception {
        Process child;
        try {
            child = Exec.command(arguments.command()).withStdout(Exec.Io.PIPE).withStderr(Exec.Io.INHERIT).start();
        } catch (IOException e) {
            System.err.println("stdio-proxy: " + e.getMessage());
            return USAGE;
        }
        EventLog log = new EventLog(arguments.log());
        Pump up = new Pump(ProxyPlan.Direction.UP, stdin, child.getOutputStream(), arguments.plan(), new Random(arguments.seed() * 31 + 1), log);
        Pump down = new Pump(ProxyPlan.Direction.DOWN, child.getInputStream(), stdout, arguments.plan(), new Random(arguments.seed() * 31 + 2), log);
        Thread upThread = new Thread(up, "proxy-up");
        Thread downThread = new Thread(down, "proxy-down");
        upThread.start();
        downThread.start();
        upThread.join();
        downThread.join();
        int status = child.waitFor();
        log.summary(up, down, status);
        log.close();
        return status;
    }

    /** Forwards one direction frame by frame, applying the plan. */
    static final class Pump implements Runnable {
        final ProxyPlan.Direction direction;
        final Map<ProxyPlan.Fault, AtomicLong> counts = new EnumMap<>(ProxyPlan.Fault.class);
        final AtomicLong seen = new AtomicLong();
        private final InputStream in;
        private final OutputStream out;
        private final ProxyPlan plan;
        private final Random random;
        private final EventLog log;
        private byte[] held;

        Pump(ProxyPlan.Direction direction, InputStream in, OutputStream out, ProxyPlan plan, Random random, EventLog log) {
            this.direction = direction;
            this.in = new BufferedInputStream(in, 1 << 16);
            this.out = out;
            this.plan = plan;
            this.random = random;
            this.log = log;
            for (ProxyPlan.Fault fault : ProxyPlan.Fault.values()) {
                counts.put(fault, new AtomicLong());
            }
        }

        @Override
        public void run() {
            try {
                byte[] frame;
                while ((frame = readFrame()) != null) {
                    long n = seen.incrementAndGet();
                    ProxyPlan.Fault fault = plan.choose(direction, random);
                    if (fault != null) {
                        counts.get(fault).incrementAndGet();
                        log.fault(direction, n, fault, frame.length);
                    }
                    forward(frame, fault);
                }
                if (held != null) {
                    write(held);
                    held = null;
                }
            } catch (IOException gone) {
                // the other side went away; end this direction
            } finally {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }

        private void forward(byte[] frame, ProxyPlan.Fault fault) throws IOException {
            if (fault == ProxyPlan.Fault.REORDER) {
                if (held == null) {
                    held = frame; // goes out right after the next frame
                } else {
                    write(frame);
                    write(held);
                    held = null;
                }
                return;
            }
            switch (fault == null ? "PASS" : fault.name()) {
                case "DROP" -> { }
                case "DUPLICATE" -> {
                    write(frame);
                    write(frame);
                }
                case "DELAY" -> {
                    sleep(plan.delayMillis());
                    write(frame);
                }
                case "TRUNCATE" -> write(Arrays.copyOf(frame, frame.length <= 1 ? 0 : 1 + random.nextInt(frame.length - 1)));
                default -> write(frame);
            }
            if (held != null) {
                write(held);
                held = null;
            }
        }

        private byte[] readFrame() throws IOException {
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\n') {
                    return frame.toByteArray();
                }
                frame.write(b);
            }
            return frame.size() > 0 ? frame.toByteArray() : null;
        }

        private void write(byte[] frame) throws IOException {
            out.write(frame);
            out.write('\n');
            out.flush();
        }

        private static void sleep(int millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The fault log: one JSON line per fault, then a summary. Sizes and positions only, never a frame's content. */
    static final class EventLog {
        private final Writer out;

        EventLog(Path file) throws IOException {
            this.out = file == null ? null : Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        }

        synchronized void fault(ProxyPlan.Direction direction, long n, ProxyPlan.Fault fault, int bytes) {
            line("{\"event\":\"fault\",\"direction\":\"" + name(direction) + "\",\"frame\":" + n + ",\"fault\":\"" + name(fault)
                    + "\",\"bytes\":" + bytes + "}");
        }

        synchronized void summary(Pump up, Pump down, int status) {
            StringBuilder text = new StringBuilder("{\"event\":\"summary\",\"child_exit\":").append(status);
            for (Pump pump : List.of(up, down)) {
                text.append(",\"").append(name(pump.direction)).append("\":{\"seen\":").append(pump.seen.get());
                pump.counts.forEach((fault, count) -> text.append(",\"").append(name(fault)).append("\":").append(count.get()));
                text.append('}');
            }
            line(text.append('}').toString());
        }

        private void line(String text) {
            if (out == null) {
                return;
            }
            try {
                out.write(text);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void close() throws IOException {
            if (out != null) {
                out.close();
            }
        }

        private static String name(Enum<?> value) {
            return value.name().toLowerCase(Locale.ROOT);
        }
    }
}
