package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void utimePlusStimeAfterACommandNameWithSpacesAndParentheses() {
        // fields: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String stat = "4242 (node (x) y) S 1 4242 4242 0 -1 4194560 900 0 3 0 157 43 2 1 20 0 11 0 123 456 789\n";
        assertEquals(200, ProcessCpu.ticksOf(stat));
    }

    @Test
    void aGoneProcessHasUsedNothing() {
        assertEquals(0, ProcessCpu.ticks(Long.MAX_VALUE));
    }

    @Test
    void thisProcessCountsItsOwnWork() {
        assumeTrue(ProcessCpu.available(), "no /proc here");
        long before = ProcessCpu.nanos(ProcessHandle.current());
        // Spin until this thread itself has used 300 ms of CPU (by the JVM's own count), however loaded the machine.
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - start < 300_000_000L) {
            sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
        }
        long used = ProcessCpu.nanos(ProcessHandle.current()) - before;
        // /proc counts in 10 ms ticks: allow two of them
        assertTrue(used >= 280_000_000L, "300 ms of this thread's CPU, but /proc counted " + used + " ns (sink " + sink + ")");
    }
}
