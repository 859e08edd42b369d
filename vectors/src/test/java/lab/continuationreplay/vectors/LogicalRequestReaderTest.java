package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogicalRequestReaderTest {
    private static final String BASE = "\"principal\":\"alice\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{}";

    private static String rejection(String json) {
        return assertThrows(CanonicalJsonException.class, () -> LogicalRequestReader.readNamed(ExactJson.parse(json)))
                .getMessage();
    }

    @Test
    void readsAPlainRequestWithDefaultsForTheOpaqueFields() {
        NamedRequest named = LogicalRequestReader.readNamed(ExactJson.parse("{" + BASE + "}"));
        assertNull(named.name());
        assertEquals("alice", named.request().principal());
        assertTrue(named.request().continuationState().isNull());
        assertTrue(named.request().inputResponses().isNull());
    }

    @Test
    void readsANamedRequestAndANullPrincipal() {
        NamedRequest named = LogicalRequestReader.readNamed(ExactJson.parse(
                "{\"name\":\"v\",\"request\":{\"principal\":null,\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{}}}"));
        assertEquals("v", named.name());
        assertNull(named.request().principal());
    }

    @Test
    void aMissingOpaqueFieldBindsLikeAnExplicitNull() {
        RequestFingerprint fingerprint = new RequestFingerprint(FingerprintKey.of(new byte[32]));
        String missing = fingerprint.digest(LogicalRequestReader.read(ExactJson.parse("{" + BASE + "}")));
        String explicit = fingerprint.digest(LogicalRequestReader.read(ExactJson.parse(
                "{" + BASE + ",\"continuation_state\":null,\"input_responses\":null}")));
        assertEquals(missing, explicit);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            []                                                         | a line must hold a JSON object
            "text"                                                     | a line must hold a JSON object
            {"name":"v","request":[]}                                  | a LogicalRequest must be a JSON object
            {"request":{}}                                             | a named entry must have exactly the members "name" and "request"
            {"name":"v","request":{},"x":1}                            | a named entry must have exactly the members "name" and "request"
            {"name":1,"request":{}}                                    | $.name: must be a string without control characters
            {"name":"a\\tb","request":{}}                              | $.name: must be a string without control characters
            {"name":"\\ud800","request":{}}                            | $.name: unpaired UTF-16 surrogate is not valid Unicode
            {"zz":1,"5":2,"tool_id":"t"}                               | $.5: unknown LogicalRequest member
            {"tool_id":"t","tool_version":"1","arguments":{}}          | $.principal: required
            {"principal":1,"tool_id":"t","tool_version":"1","arguments":{}} | $.principal: must be a string or null
            {"principal":"a","tool_version":"1","arguments":{}}        | $.tool_id: required
            {"principal":"a","tool_id":null,"tool_version":"1","arguments":{}} | $.tool_id: must be a string
            {"principal":"a","tool_id":"t","arguments":{}}             | $.tool_version: required
            {"principal":"a","tool_id":"t","tool_version":1,"arguments":{}} | $.tool_version: must be a string
            {"principal":"a","tool_id":"t","tool_version":"1"}         | $.arguments: required
            {"principal":"a","tool_id":"t","tool_version":"1","arguments":[]} | $.arguments: must be a JSON object
            {"principal":"a","tool_id":"t","tool_version":"1","arguments":"x"} | $.arguments: must be a JSON object
            {"principal":"a","tool_id":"t","tool_version":"1","arguments":null} | $.arguments: must be a JSON object
            {"principal":"a","tool_id":"t","tool_version":"1","arguments":1.5} | $.arguments: must be a JSON object
            """)
    void rejectsMalformedRequestsWithAClearMessage(String json, String message) {
        assertEquals(message, rejection(json));
    }
}
