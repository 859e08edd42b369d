package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import lab.continuationreplay.store.guard.InvalidApplicationRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestReaderTest {
    private static String refusal(String line) {
        return refusal(line.getBytes(StandardCharsets.UTF_8));
    }

    private static String refusal(byte[] line) {
        return assertThrows(InvalidApplicationRequest.class, () -> RequestReader.read(line)).getMessage();
    }

    @Test
    void readsAnApply() {
        ObjectNode line = Requests.apply("op-1", "title", "partial", "text");
        BridgeRequest.Apply apply = (BridgeRequest.Apply) RequestReader.read(Requests.bytes(line));
        assertEquals("op-1", apply.operationId());
        assertEquals("title", apply.title());
        assertEquals("partial", apply.mode());
        assertEquals("text", apply.body());
        assertEquals(Requests.state("op-1").toString(), apply.state().toString());
        assertEquals(Requests.responses("text").toString(), apply.responses().toString());
    }

    @Test
    void readsAStatus() {
        assertEquals(new BridgeRequest.Status("op-1"), RequestReader.read(Requests.bytes(Requests.status("op-1"))));
    }

    @Test
    void memberOrderAndWhitespaceDoNotMatter() {
        assertEquals(new BridgeRequest.Status("x"),
                RequestReader.read(" { \"operation_id\" : \"x\" ,\t\"op\":\"status\" }\r".getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            empty line             | ``                                   | invalid JSON: no value
            blank line             | `   `                                | invalid JSON: no value
            not JSON               | `hello`                              | invalid JSON: Unrecognized token 'hello': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')
            truncated              | `{"op":"status"`                     | invalid JSON: Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])
            array                  | `[]`                                 | a bridge request must be a JSON object
            string                 | `"status"`                           | a bridge request must be a JSON object
            null                   | `null`                               | a bridge request must be a JSON object
            no op                  | `{"operation_id":"x"}`               | op must be a string
            op not a string        | `{"op":1,"operation_id":"x"}`        | op must be a string
            unknown op             | `{"op":"delete","operation_id":"x"}` | unsupported bridge operation
            op in another case     | `{"op":"Status","operation_id":"x"}` | unsupported bridge operation
            status extra field     | `{"op":"status","operation_id":"x","principal":"bob"}` | bridge status requires exactly the fields [op, operation_id]; unexpected [principal]
            status missing id      | `{"op":"status"}`                    | bridge status requires exactly the fields [op, operation_id]; missing [operation_id]
            status id not a string | `{"op":"status","operation_id":7}`   | operation_id must be a string
            status id null         | `{"op":"status","operation_id":null}` | operation_id must be a string
            duplicate key          | `{"op":"status","operation_id":"x","operation_id":"y"}` | invalid JSON: Duplicate field 'operation_id'
            create with an id      | `{"op":"create","title":"t","body":"b","responses":{},"operation_id":"x"}` | bridge create requires exactly the fields [op, title, body, responses]; unexpected [operation_id]
            create missing body    | `{"op":"create","title":"t","responses":{}}` | bridge create requires exactly the fields [op, title, body, responses]; missing [body]
            create title a number  | `{"op":"create","title":1,"body":"b","responses":{}}` | title must be a string
            create responses text  | `{"op":"create","title":"t","body":"b","responses":"b"}` | responses must be an object
            trailing content       | `{"op":"status","operation_id":"x"} {}` | invalid JSON: Trailing token (of type START_OBJECT) found after value (bound as `com.fasterxml.jackson.databind.JsonNode`): not allowed as per `DeserializationFeature.FAIL_ON_TRAILING_TOKENS`
            """)
    void refusesABadLine(String name, String line, String message) {
        assertEquals(message, refusal(line));
    }

    @Test
    void refusesApplyWithMissingOrExtraFields() {
        ObjectNode missing = Requests.apply("op-1", "t", "atomic", "b");
        missing.remove("body");
        missing.remove("state");
        assertEquals("bridge apply requires exactly the fields [op, operation_id, title, mode, body, state, responses];"
                + " missing [body, state]", refusal(missing.toString()));
        ObjectNode extra = Requests.apply("op-1", "t", "atomic", "b");
        extra.put("principal", "bob");
        extra.put("backend", "other");
        assertEquals("bridge apply requires exactly the fields [op, operation_id, title, mode, body, state, responses];"
                + " unexpected [backend, principal]", refusal(extra.toString()));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            operation_id | 1          | operation_id must be a string
            title        | null       | title must be a string
            mode         | true       | mode must be a string
            body         | {}         | body must be a string
            state        | `"{}"`     | state must be an object
            state        | []         | state must be an object
            responses    | null       | responses must be an object
            """)
    void refusesApplyFieldsOfTheWrongType(String field, String json, String message) {
        ObjectNode request = Requests.apply("op-1", "t", "atomic", "b");
        request.set(field, lab.continuationreplay.vectors.ExactJson.parse(json));
        assertEquals(message, refusal(request.toString()));
    }

    @Test
    void refusesInvalidUtf8() {
        byte[] prefix = "{\"op\":\"status\",\"operation_id\":\"".getBytes(StandardCharsets.UTF_8);
        for (byte[] bad : new byte[][] {{(byte) 0xff}, {(byte) 0xc3}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xc0, (byte) 0xaf}}) {
            byte[] line = new byte[prefix.length + bad.length + 2];
            System.arraycopy(prefix, 0, line, 0, prefix.length);
            System.arraycopy(bad, 0, line, prefix.length, bad.length);
            line[line.length - 2] = '"';
            line[line.length - 1] = '}';
            assertEquals("request is not valid UTF-8", refusal(line));
        }
    }

    @Test
    void acceptsMultiByteUtf8() {
        assertEquals(new BridgeRequest.Status("é😀"),
                RequestReader.read("{\"op\":\"status\",\"operation_id\":\"é😀\"}".getBytes(StandardCharsets.UTF_8)));
    }
}
