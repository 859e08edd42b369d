package lab.continuationreplay.history;

import java.util.ArrayList;
import java.util.List;

/** The frames of a Streamable HTTP event stream: each event's {@code data:} lines, joined by line feeds. */
public final class EventStream {
    private EventStream() {}

    public static List<String> data(String stream) {
        List<String> events = new ArrayList<>();
        StringBuilder data = null;
        for (String line : stream.split("\r\n|\n|\r", -1)) {
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(data.toString());
                }
                data = null;
            } else if (line.equals("data") || line.startsWith("data:")) {
                // A line without a colon is a field with an empty value (WHATWG HTML, "Interpreting an event stream").
                String field = line.substring(4);
                String value = field.startsWith(": ") ? field.substring(2) : field.isEmpty() ? "" : field.substring(1);
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        if (data != null) {
            events.add(data.toString());
        }
        return events;
    }
}
