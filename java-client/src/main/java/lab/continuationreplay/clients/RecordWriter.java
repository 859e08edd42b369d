package lab.continuationreplay.clients;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The records file, one line per step. Each line is written whole and flushed at once, so a driver that dies
 * keeps every record of what had already happened; parallel steps share the writer, hence the lock.
 */
final class RecordWriter implements AutoCloseable {
    private final OutputStream out;
    private final String sdkVersion;

    RecordWriter(Path file, String sdkVersion) throws IOException {
        this.out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        this.sdkVersion = sdkVersion;
    }

    synchronized void write(ClientRecord record) throws IOException {
        byte[] line = (SdkJson.JSON.writeValueAsString(record.toJson(sdkVersion)) + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(line);
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
