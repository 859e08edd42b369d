package lab.continuationreplay.matrix.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;

/**
 * How long each case of an attempt took to play, as the runner recorded it in the attempt's {@code history.jsonl}
 * ({@code played_ms}). The report shows these times beside the checker's verdicts and never mixes them in: a slow case
 * is not a failed one. An attempt whose history has no times (an older lab) simply has none.
 */
final class CaseTimes {
    private CaseTimes() {}

    /** Case id ({@code 01}, {@code h1}) to milliseconds, for every case folder of {@code attempt} with a recorded time. */
    static Map<String, Long> of(Path attempt) {
        Map<String, Long> times = new LinkedHashMap<>();
        Map<String, RunLog.Entry> history;
        try {
            history = RunLog.read(attempt.resolve(Layout.HISTORY), attempt.getFileName() + "/" + Layout.HISTORY);
        } catch (IOException | FormatException e) {
            // The checker has already said what is wrong with this history; the report just draws no time for it.
            return times;
        }
        String prefix = Layout.caseFolder("");
        history.forEach((folder, entry) -> {
            if (folder.startsWith(prefix) && entry.playedMs() != null) {
                times.put(folder.substring(prefix.length()), entry.playedMs());
            }
        });
        return times;
    }
}
