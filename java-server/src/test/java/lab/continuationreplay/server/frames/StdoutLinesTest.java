package lab.continuationreplay.server.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class StdoutLinesTest {
    /** A stdout that takes one byte at a time and yields in between, so any unlocked writer would interleave. */
    static final class SlowStdout extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            synchronized (bytes) {
                bytes.write(b);
            }
            Thread.yield();
        }

        @Override
        public void write(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++) {
                write(b[off + i]);
            }
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void linesOfTheSdkAndOfTheGateNeverInterleave() throws Exception {
        SlowStdout slow = new SlowStdout();
        StdoutLines stdout = new StdoutLines(slow);
        int each = 300;
        Set<String> expected = new HashSet<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < 2; w++) {
            int writer = w;
            OutputStream view = stdout.writer();
            Random random = new Random(w);
            writers.add(new Thread(() -> {
                try {
                    go.await();
                    for (int i = 0; i < each; i++) {
                        byte[] line = ("{\"sdk\":" + writer + ",\"n\":" + i + ",\"pad\":\"" + "p".repeat(random.nextInt(40)) + "\"}\n")
                                .getBytes(StandardCharsets.UTF_8);
                        // the SDK's writes split anywhere, also several lines in one write
                        int at = 0;
                        while (at < line.length) {
                            int n = 1 + random.nextInt(line.length - at);
                            view.write(line, at, n);
                            at += n;
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        writers.add(new Thread(() -> {
            try {
                go.await();
                for (int i = 0; i < each; i++) {
                    stdout.writeLine(("{\"gate\":" + i + "}\n").getBytes(StandardCharsets.UTF_8));
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        }));
        for (int w = 0; w < 2; w++) {
            for (int i = 0; i < each; i++) {
                expected.add("{\"sdk\":" + w + ",\"n\":" + i + ",");
            }
        }
        for (int i = 0; i < each; i++) {
            expected.add("{\"gate\":" + i + "}");
        }
        writers.forEach(Thread::start);
        go.countDown();
        for (Thread t : writers) {
            t.join(60_000);
        }
        assertTrue(failures.isEmpty(), failures.toString());
        String[] lines = slow.text().split("\n", -1);
        assertEquals("", lines[lines.length - 1], "ends with a newline");
        assertEquals(3 * each, lines.length - 1);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            String key = line.startsWith("{\"gate\"") ? line : line.substring(0, line.indexOf(",\"pad\"") + 1);
            assertTrue(line.matches("\\{\"gate\":\\d+}|\\{\"sdk\":\\d,\"n\":\\d+,\"pad\":\"p*\"}"), "whole line: " + line);
            assertTrue(seen.add(key), "once: " + line);
        }
        assertEquals(expected, seen);
    }

    @Test
    void aLineIsWrittenOnceWholeAndFlushed() throws Exception {
        List<String> writes = new ArrayList<>();
        OutputStream recording = new OutputStream() {
            ByteArrayOutputStream pending = new ByteArrayOutputStream();

            @Override
            public void write(int b) {
                pending.write(b);
            }

            @Override
            public void flush() {
                writes.add(pending.toString(StandardCharsets.UTF_8));
                pending.reset();
            }
        };
        StdoutLines stdout = new StdoutLines(recording);
        OutputStream view = stdout.writer();
        view.write("{\"a\":".getBytes(StandardCharsets.UTF_8));
        view.flush();
        assertEquals(List.of(), writes, "a partial line is held");
        view.write("1}\n{\"b\":2}\n{\"c\"".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("{\"a\":1}\n", "{\"b\":2}\n"), writes);
        view.write(":3}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"c\":3}\n", writes.get(2));
    }

    @Test
    void onlyFramesReachStdoutAndAnythingElseIsDivertedWhole() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        ByteArrayOutputStream diverted = new ByteArrayOutputStream();
        StdoutLines stdout = new StdoutLines(wire, diverted);
        OutputStream view = stdout.writer();
        view.write("[0.039s][warning][cds] Unable to use shared archive\n{\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
        stdout.writeLine("{\"id\":2}\n".getBytes(StandardCharsets.UTF_8));
        stdout.writeLine("{\"id\":3} trailing\n".getBytes(StandardCharsets.UTF_8));
        view.write("{\"half\":".getBytes(StandardCharsets.UTF_8));
        view.close();
        assertEquals("{\"id\":1}\n{\"id\":2}\n", wire.toString(StandardCharsets.UTF_8));
        assertEquals("""
                java-server: held back from stdout (not a frame): [0.039s][warning][cds] Unable to use shared archive
                java-server: held back from stdout (not a frame): {"id":3} trailing
                java-server: held back from stdout (not a frame): {"half":
                """, diverted.toString(StandardCharsets.UTF_8));
    }
}
