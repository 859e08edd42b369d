package lab.continuationreplay.faults;

import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.faults.proxy.StdioProxyExperiment;
import lab.continuationreplay.faults.fuzz.WireFuzzExperiment;
import lab.continuationreplay.faults.token.TokenAttacksExperiment;

/** Every experiment of {@code lab faults}, in the order they run. The secrets scan runs last: it reads what the others wrote. */
public final class FaultExperiments {
    private FaultExperiments() {}

    public static List<FaultExperiment> all() {
        return List.of(
                new CutPointsExperiment(),
                new KillSoakExperiment(),
                // adversarial inputs: a faulty stdio intermediary, wire fuzzing, requestState attacks
                new StdioProxyExperiment(),
                new WireFuzzExperiment(),
                new TokenAttacksExperiment(),
                new StorageFaultsExperiment(),
                new SecretsScanExperiment());
    }

    /** The experiments named in {@code only} (all when null), failing on a name that does not exist. */
    public static List<FaultExperiment> select(List<String> only) {
        List<FaultExperiment> all = all();
        if (only == null) {
            return all;
        }
        List<String> known = all.stream().map(FaultExperiment::name).toList();
        List<FaultExperiment> chosen = new ArrayList<>();
        for (String name : only) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown experiment '" + name + "' (one of " + String.join(", ", known) + ")");
            }
        }
        for (FaultExperiment experiment : all) {
            if (only.contains(experiment.name())) {
                chosen.add(experiment);
            }
        }
        return chosen;
    }
}
