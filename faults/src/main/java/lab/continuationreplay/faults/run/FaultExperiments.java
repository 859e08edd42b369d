package lab.continuationreplay.faults.run;

import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.crash.CutPointsExperiment;
import lab.continuationreplay.faults.crash.KillSoakExperiment;
import lab.continuationreplay.faults.crash.StorageFaultsExperiment;
import lab.continuationreplay.faults.secrets.SecretsScanExperiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.faults.fuzz.HttpFuzzExperiment;
import lab.continuationreplay.faults.fuzz.WireFuzzExperiment;
import lab.continuationreplay.faults.proxy.HttpProxyExperiment;
import lab.continuationreplay.faults.proxy.StdioProxyExperiment;
import lab.continuationreplay.faults.stall.StalledClientsExperiment;
import lab.continuationreplay.faults.token.TokenAttacksExperiment;

/** Every experiment of {@code lab faults}, in the order they run. The secrets scan runs last: it reads what the others wrote. */
public final class FaultExperiments {
    /** One experiment and the transports it runs over in this run (one, except for the experiments run once at the end). */
    public record Planned(FaultExperiment experiment, List<Transport> over) {
        public Planned {
            over = List.copyOf(over);
        }

        /** {@code stdio}, {@code http}, or {@code stdio+http} for an experiment that covers both at once. */
        public String transportLabel() {
            return String.join("+", over.stream().map(Transport::label).toList());
        }
    }

    private FaultExperiments() {}

    public static List<FaultExperiment> all() {
        return List.of(
                new CutPointsExperiment(),
                new KillSoakExperiment(),
                // adversarial inputs: faulty intermediaries, wire and HTTP fuzzing, requestState and bearer attacks, stalled clients
                new StdioProxyExperiment(),
                new WireFuzzExperiment(),
                new HttpFuzzExperiment(),
                new HttpProxyExperiment(),
                new TokenAttacksExperiment(),
                new StalledClientsExperiment(),
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

    /**
     * The run order: every selected experiment over the first transport, then over the second, then the experiments
     * run once at the end over all of them. An experiment named in {@code only} that runs over none of the chosen
     * transports is an error, not a silent skip.
     */
    public static List<Planned> plan(List<String> only, List<Transport> transports) {
        List<FaultExperiment> selected = select(only);
        List<Planned> planned = new ArrayList<>();
        for (Transport transport : transports) {
            for (FaultExperiment experiment : selected) {
                if (!experiment.runsOnceAtTheEnd() && experiment.transports().contains(transport)) {
                    planned.add(new Planned(experiment, List.of(transport)));
                }
            }
        }
        for (FaultExperiment experiment : selected) {
            if (experiment.runsOnceAtTheEnd()) {
                List<Transport> over = transports.stream().filter(experiment.transports()::contains).toList();
                if (!over.isEmpty()) {
                    planned.add(new Planned(experiment, over));
                }
            }
        }
        if (only != null) {
            for (FaultExperiment experiment : selected) {
                if (planned.stream().noneMatch(p -> p.experiment() == experiment)) {
                    throw new IllegalArgumentException("experiment '" + experiment.name() + "' runs over "
                            + String.join(" or ", experiment.transports().stream().sorted()
                                    .map(t -> t.label().toLowerCase(Locale.ROOT)).toList())
                            + " only, not over --transport " + String.join(",", transports.stream().map(Transport::label).toList()));
                }
            }
        }
        return planned;
    }
}
