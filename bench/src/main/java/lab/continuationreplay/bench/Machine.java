package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;

/** The facts of the machine a run measured: cores, CPU, memory, kernel, JDK, Node.js and the scratch file system. */
final class Machine {
    private Machine() {}

    static ObjectNode facts(Path work) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("cpu_model", firstValue(Path.of("/proc/cpuinfo"), "model name").orElse("unknown"));
        json.put("memory_mib", firstValue(Path.of("/proc/meminfo"), "MemTotal")
                .map(v -> Long.parseLong(v.replaceAll("[^0-9]", "")) / 1024).orElse(-1L));
        json.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        json.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        json.put("node", nodeVersion());
        json.put("file_system", fileSystemOf(work));
        json.put("load_average_at_start", loadAverage());
        return json;
    }

    /** The 1-, 5- and 15-minute load averages from /proc/loadavg: a busy machine shows here before it shows in a ratio. */
    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "unknown";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static java.util.Optional<String> firstValue(Path file, String key) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith(key)).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    static String nodeVersion() {
        try {
            Exec.Result node = Exec.run(List.of(LabHome.node(), "--version"), Duration.ofSeconds(20));
            return node.succeeded() ? node.output().trim() : "unavailable";
        } catch (IOException e) {
            return "unavailable";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unavailable";
        }
    }

    /** The type of the mount holding {@code folder} (the longest mount point that is a prefix), from /proc/mounts. */
    private static String fileSystemOf(Path folder) {
        try {
            Path real = folder.toRealPath();
            String best = "unknown";
            int bestLength = -1;
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                List<String> parts = List.of(line.split(" "));
                if (parts.size() < 3) {
                    continue;
                }
                Path mount = Path.of(parts.get(1));
                if (real.startsWith(mount) && parts.get(1).length() > bestLength) {
                    best = parts.get(2);
                    bestLength = parts.get(1).length();
                }
            }
            return best;
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
