package lab.continuationreplay.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import lab.continuationreplay.matrix.run.CaseProgress;

/**
 * The matrix's progress. On a terminal: one line per column ({@code java  7/12  elapsed 9 s  ETA 6 s}), redrawn in
 * place each second and as cases end. Elsewhere (a CI log, a file): the plain line per case, so logs stay readable.
 */
final class ProgressBoard implements CaseProgress, AutoCloseable {
    /** Set by the launcher when its stderr is a terminal; {@code java -jar} alone gets the plain lines. */
    static final String TTY_VARIABLE = "LAB_STDERR_TTY";
    private static final String UP = "\033[%dA";
    private static final String CLEAR_LINE = "\r\033[2K";

    /** A line of the board: a column, or the cross cells, or the controls, with how many items it will play. */
    record Row(String label, int total) {}

    private final PrintStream out;
    private final CaseProgress plain;
    private final boolean live;
    private final LongSupplier nanos;
    private final long started;
    private final Function<String, String> rowOf;
    private final Map<String, int[]> done = new LinkedHashMap<>();
    private final Map<String, Integer> totals = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker;
    private int drawn;

    /**
     * {@code rowOf} maps an attempt's name to the label of its row; {@code live} draws the board, else the plain
     * lines; {@code nanos} is the clock (a test gives its own).
     */
    ProgressBoard(PrintStream out, List<Row> rows, Function<String, String> rowOf, boolean live, LongSupplier nanos) {
        this.out = out;
        this.plain = CaseProgress.lines(out);
        this.live = live;
        this.nanos = nanos;
        this.started = nanos.getAsLong();
        this.rowOf = rowOf;
        for (Row row : rows) {
            totals.merge(row.label(), row.total(), Integer::sum);
            done.putIfAbsent(row.label(), new int[1]);
        }
        this.ticker = live ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress-board");
            t.setDaemon(true);
            return t;
        }) : null;
        if (live) {
            redraw();
            ticker.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** Live when the launcher said stderr is a terminal and the terminal can move its cursor. */
    static boolean liveFor(Function<String, String> env) {
        return "1".equals(env.apply(TTY_VARIABLE)) && !"dumb".equals(env.apply("TERM"));
    }

    @Override
    public synchronized void played(String attempt, String item, String machineryError, long caseNanos) {
        int[] count = done.get(rowOf.apply(attempt));
        if (count != null) {
            count[0]++;
        }
        if (!live) {
            plain.played(attempt, item, machineryError, caseNanos);
            return;
        }
        if (machineryError != null) {
            erase();
            plain.played(attempt, item, machineryError, caseNanos);
        }
        redraw();
    }

    /** The board as it stands, one string per row (what a terminal shows). */
    synchronized List<String> lines() {
        double elapsed = (nanos.getAsLong() - started) / 1e9;
        return totals.entrySet().stream().map(row -> line(row.getKey(), done.get(row.getKey())[0], row.getValue(), elapsed)).toList();
    }

    static String line(String label, int done, int total, double elapsedSeconds) {
        String eta;
        if (done >= total) {
            eta = "done";
        } else if (done == 0) {
            eta = "ETA ?";
        } else {
            eta = String.format("ETA %.0f s", elapsedSeconds * (total - done) / done);
        }
        return String.format("%-14s %3d/%-3d  elapsed %3.0f s  %s", label, done, total, elapsedSeconds, eta);
    }

    private synchronized void redraw() {
        StringBuilder frame = new StringBuilder();
        if (drawn > 0) {
            frame.append(String.format(UP, drawn));
        }
        List<String> lines = lines();
        for (String line : lines) {
            frame.append(CLEAR_LINE).append(line).append('\n');
        }
        drawn = lines.size();
        out.print(frame);
        out.flush();
    }

    /** Clears the board so that a line can be printed where it stood; the next redraw puts it below. */
    private void erase() {
        if (drawn == 0) {
            return;
        }
        StringBuilder frame = new StringBuilder(String.format(UP, drawn));
        for (int i = 0; i < drawn; i++) {
            frame.append(CLEAR_LINE).append('\n');
        }
        frame.append(String.format(UP, drawn));
        drawn = 0;
        out.print(frame);
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
            redraw();
        }
    }
}
