package lab.continuationreplay.faults.proxy;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * What the stdio proxy does to frames, as probabilities per direction: {@code up} is client to server, {@code down}
 * server to client, {@code both} sets the two. Text form: comma-separated {@code DIRECTION.FAULT=P} entries and an
 * optional {@code delay-ms=N}, e.g. {@code up.drop=0.05,down.duplicate=0.1,both.truncate=0.02,delay-ms=150}; the
 * empty plan (or {@code none}) forwards everything unchanged. At most one fault applies to a frame; the
 * probabilities of one direction must add up to at most 1.
 */
public record ProxyPlan(Map<Direction, Map<Fault, Double>> probabilities, int delayMillis) {
    public enum Direction { UP, DOWN }

    public enum Fault { DROP, DUPLICATE, DELAY, REORDER, TRUNCATE }

    public static final int DEFAULT_DELAY_MS = 200;

    public static ProxyPlan parse(String text) {
        Map<Direction, Map<Fault, Double>> probabilities = new EnumMap<>(Direction.class);
        for (Direction direction : Direction.values()) {
            probabilities.put(direction, new EnumMap<>(Fault.class));
        }
        int delay = DEFAULT_DELAY_MS;
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty() || trimmed.equals("none")) {
            return new ProxyPlan(probabilities, delay);
        }
        for (String entry : trimmed.split(",")) {
            String[] pair = entry.trim().split("=", -1);
            if (pair.length != 2 || pair[0].isBlank()) {
                throw new IllegalArgumentException("plan entry '" + entry.trim() + "' is not NAME=VALUE");
            }
            String name = pair[0].trim().toLowerCase(Locale.ROOT);
            if (name.equals("delay-ms")) {
                delay = parseInt(pair[1].trim(), entry);
                continue;
            }
            int dot = name.indexOf('.');
            if (dot < 0) {
                throw new IllegalArgumentException("plan entry '" + entry.trim() + "' needs a direction: up.FAULT, down.FAULT or both.FAULT");
            }
            Fault fault = fault(name.substring(dot + 1), entry);
            double p = probability(pair[1].trim(), entry);
            switch (name.substring(0, dot)) {
                case "up" -> probabilities.get(Direction.UP).put(fault, p);
                case "down" -> probabilities.get(Direction.DOWN).put(fault, p);
                case "both" -> {
                    probabilities.get(Direction.UP).put(fault, p);
                    probabilities.get(Direction.DOWN).put(fault, p);
                }
                default -> throw new IllegalArgumentException("unknown direction '" + name.substring(0, dot) + "' in plan entry '"
                        + entry.trim() + "' (up, down or both)");
            }
        }
        for (Direction direction : Direction.values()) {
            double sum = probabilities.get(direction).values().stream().mapToDouble(Double::doubleValue).sum();
            if (sum > 1.0 + 1e-9) {
                throw new IllegalArgumentException("the " + direction.name().toLowerCase(Locale.ROOT) + " probabilities add up to " + sum + ", more than 1");
            }
        }
        return new ProxyPlan(probabilities, delay);
    }

    /** The fault for the next frame in {@code direction}, or null to forward it unchanged. */
    public Fault choose(Direction direction, Random random) {
        double roll = random.nextDouble();
        double upTo = 0;
        for (Map.Entry<Fault, Double> entry : probabilities.get(direction).entrySet()) {
            upTo += entry.getValue();
            if (roll < upTo) {
                return entry.getKey();
            }
        }
        return null;
    }

    /** The canonical text form (parses back to an equal plan). */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (Direction direction : Direction.values()) {
            probabilities.get(direction).forEach((fault, p) -> out.append(out.length() == 0 ? "" : ",")
                    .append(direction.name().toLowerCase(Locale.ROOT)).append('.').append(fault.name().toLowerCase(Locale.ROOT))
                    .append('=').append(p));
        }
        return out.append(out.length() == 0 ? "" : ",").append("delay-ms=").append(delayMillis).toString();
    }

    private static Fault fault(String name, String entry) {
        for (Fault fault : Fault.values()) {
            if (fault.name().toLowerCase(Locale.ROOT).equals(name)) {
                return fault;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + name + "' in plan entry '" + entry.trim()
                + "' (drop, duplicate, delay, reorder or truncate)");
    }

    private static double probability(String value, String entry) {
        try {
            double p = Double.parseDouble(value);
            if (!(p >= 0 && p <= 1)) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("probability '" + value + "' in plan entry '" + entry.trim() + "' is not a number from 0 to 1");
        }
    }

    private static int parseInt(String value, String entry) {
        try {
            int n = Integer.parseInt(value);
            if (n < 0 || n > 60_000) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("delay-ms '" + value + "' is not a whole number of milliseconds from 0 to 60000");
        }
    }
}
