package lab.continuationreplay.server;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/** stdin and stdout as the SDK sees them: every byte counts as activity, and end of input waits for quiet. */
final class DrainingStdio {
    private DrainingStdio() {}

    static InputStream input(InputStream stdin, Activity activity, Duration limit) {
        return new FilterInputStream(stdin) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                return b < 0 ? endOfInput(activity, limit) : moved(activity, b);
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                return n < 0 ? endOfInput(activity, limit) : moved(activity, n);
            }
        };
    }

    static OutputStream output(OutputStream stdout, Activity activity) {
        return new FilterOutputStream(stdout) {
            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                out.write(buffer, offset, length);
                activity.moved();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                activity.moved();
            }
        };
    }

    private static int moved(Activity activity, int result) {
        activity.moved();
        return result;
    }

    private static int endOfInput(Activity activity, Duration limit) throws IOException {
        try {
            activity.awaitQuiet(limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return -1;
    }
}
