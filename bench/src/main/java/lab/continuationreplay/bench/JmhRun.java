package lab.continuationreplay.bench;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs JMH benchmarks from the lab's own class path (lab.jar carries {@code META-INF/BenchmarkList}) in throughput
 * mode and returns ops/s per benchmark method and parameter value. JMH's own output goes to a log file, never stdout.
 */
final class JmhRun {
    private JmhRun() {}

    /** {@code include} is a regex on benchmark names; keys of the result are {@code method} or {@code method[param]}. */
    static Map<String, Double> opsPerSecond(String include, Map<String, String[]> params, BenchPlan.JmhSettings settings,
            Path log) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(include)
                .forks(settings.forks())
                .warmupIterations(settings.warmupIterations())
                .warmupTime(TimeValue.milliseconds(settings.iterationMillis()))
                .measurementIterations(settings.measurementIterations())
                .measurementTime(TimeValue.milliseconds(settings.iterationMillis()))
                .mode(org.openjdk.jmh.annotations.Mode.Throughput)
                .timeUnit(TimeUnit.SECONDS)
                .threads(1)
                .shouldFailOnError(true)
                .output(log.toString());
        params.forEach(options::param);
        if (settings.forks() > 0) {
            options.jvmArgsAppend("-Xmx512m");
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        Map<String, Double> scores = new LinkedHashMap<>();
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark();
            String method = name.substring(name.lastIndexOf('.') + 1);
            String key = method;
            for (String param : result.getParams().getParamsKeys()) {
                if (!param.equals("dir")) {
                    key = method + "[" + result.getParams().getParam(param) + "]";
                }
            }
            scores.put(key, result.getPrimaryResult().getScore());
        }
        return scores;
    }
}
