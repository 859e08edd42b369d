package lab.continuationreplay.matrix.vectors;

import java.util.ArrayList;
import java.util.List;

/**
 * Hand-picked lines at the contract's edges, where each language's runtime could go its own way: nesting at both
 * limits (Python's recursion, Go's stack), number literals at the length limit and integral spellings near 2^53
 * (Node's doubles, Go's float64, Python's int and float), surrogates and a byte order mark (UTF-16 strings in Java
 * and Node, code points in Python, bytes in Go), and the members a LogicalRequest may and may not have.
 */
final class EdgeRequestLines {
    private EdgeRequestLines() {}

    static List<String> lines() {
        List<String> arguments = new ArrayList<>();
        for (int depth : new int[] {998, 999, 1000, 1099, 1100, 1101}) {
            arguments.add("{\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}");
        }
        arguments.add("{\"x\":" + "{\"a\":".repeat(999) + "1" + "}".repeat(999) + "}");
        arguments.add("{\"x\":" + "{\"a\":".repeat(1000) + "1" + "}".repeat(1000) + "}");
        arguments.add("{\"x\":1" + "0".repeat(998) + "}");
        arguments.add("{\"x\":1" + "0".repeat(999) + "}");
        arguments.add("{\"x\":0." + "0".repeat(998) + "}");
        arguments.add("{\"x\":1e" + "0".repeat(997) + "1}");
        for (String number : List.of("-0", "-0.0", "0e5", "1E2", "100e-2", "1.5e-1", "9007199254740991.0", "9007199254740991e0",
                "90071992547409910e-1", "-9007199254740991", "-9007199254740992", "9007199254740993",
                "123456789012345678901234567890e-29", "1e400", "-1e-400", "0.1e1")) {
            arguments.add("{\"x\":" + number + "}");
        }
        for (String value : List.of("\"\\ud800\"", "\"\\udc00x\"", "\"\\uD83D\\uDE00\"", "\"\uD83D\uDE00\"", "\"\\u007f\u2028\u2029\"",
                "\"\\u00e9\"", "\"\uFFFF\uE000\"", "\"\\u0000\"")) {
            arguments.add("{\"x\":" + value + "}");
        }
        arguments.addAll(List.of("{\"\\udc00\":1}", "{\"\\u0000\":1,\"\":2}", "{\"a\":1,\"a\":2}", "{\"__proto__\":{\"a\":1}}",
                "{\"\uE000\":1,\"\uD800\uDC00\":2}", "{\"10\":1,\"9\":2,\"a\":3}", "{\"x\":1}  ", "{\"x\":[1,2,]}", "{\"x\":01}",
                "{\"x\":.5}", "{\"x\":\"\t\"}", "{\"x\":1}\f", "\uFEFF{\"x\":1}"));
        List<String> lines = new ArrayList<>();
        for (String a : arguments) {
            lines.add("{\"principal\":\"a\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":" + a + "}");
        }
        String request = "{\"principal\":null,\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{}";
        lines.addAll(List.of(
                "\uFEFF" + request + "}",
                request.replace("null", "1") + "}",
                request + ",\"extra\":1}",
                request.replace("\"1\"", "1") + "}",
                request.replace("{}", "[]") + "}",
                request + ",\"continuation_state\":null}",
                request + ",\"input_responses\":null}",
                request + ",\"continuation_state\":\"s\",\"input_responses\":{\"b\":{\"action\":\"accept\"}}}",
                "{\"name\":\"n\",\"request\":" + request + "},\"x\":1}",
                "{\"name\":5,\"request\":{}}",
                "{\"name\":\"n\"}",
                "{\"name\":\"\",\"request\":" + request + "}}",
                "[]",
                "\"x\"",
                request + "}{}"));
        return List.copyOf(lines);
    }
}
