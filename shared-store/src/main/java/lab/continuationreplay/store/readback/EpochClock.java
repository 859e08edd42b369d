package lab.continuationreplay.store.readback;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Renders the injected clock the way observations carry it: ISO-8601 with a {@code +00:00} offset. */
public final class EpochClock {
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx");

    private EpochClock() {}

    public static String isoOffset(long epochSeconds) {
        return Instant.ofEpochSecond(epochSeconds).atOffset(ZoneOffset.UTC).format(ISO_SECONDS);
    }
}
