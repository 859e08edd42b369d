package lab.continuationreplay.core.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessNameTest {
    @TempDir
    Path dir;

    @Test
    void theNameThenTheNextFreeNumber() throws Exception {
        assertEquals("probe", ProcessName.claim(dir, "probe"));
        assertEquals("probe~2", ProcessName.claim(dir, "probe"));
        assertEquals("probe~3", ProcessName.claim(dir, "probe"));
        assertEquals("other", ProcessName.claim(dir, "other"));
        assertTrue(Files.isRegularFile(dir.resolve("probe~2.transcript.log")));
        assertEquals(0, Files.size(dir.resolve("probe~3.transcript.log")), "claimed empty, the transcript follows");
    }

    @Test
    void onlyATranscriptTakesAName() throws Exception {
        Files.writeString(dir.resolve("probe.stderr.log"), "left from something else");
        assertEquals("probe", ProcessName.claim(dir, "probe"));
    }

    @Test
    void theFolderIsMadeWhenMissing() throws Exception {
        assertEquals("a", ProcessName.claim(dir.resolve("x/y"), "a"));
        assertTrue(Files.isRegularFile(dir.resolve("x/y/a.transcript.log")));
    }

    @Test
    void claimsAtTheSameMomentNeverShareAName() throws Exception {
        int claimants = 8;
        CyclicBarrier together = new CyclicBarrier(claimants);
        ExecutorService pool = Executors.newFixedThreadPool(claimants);
        try {
            List<Future<String>> names = new ArrayList<>();
            for (int i = 0; i < claimants; i++) {
                Callable<String> claim = () -> {
                    together.await();
                    return ProcessName.claim(dir, "probe");
                };
                names.add(pool.submit(claim));
            }
            Set<String> distinct = new HashSet<>();
            for (Future<String> name : names) {
                distinct.add(name.get());
            }
            Set<String> expected = new HashSet<>(List.of("probe"));
            for (int k = 2; k <= claimants; k++) {
                expected.add("probe~" + k);
            }
            assertEquals(expected, distinct);
        } finally {
            pool.shutdownNow();
        }
    }
}
