package lab.continuationreplay.conformance.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import lab.continuationreplay.core.servers.ClientKind;
import org.junit.jupiter.api.Test;

class ClientScenarioTest {
    @Test
    void aScriptConnectsToTheSuitesUrlWithATokenFromTheEnvironmentAndClosesLast() {
        ObjectNode script = ClientScenario.MRTR_REQUEST_STATE.script("http://localhost:41279/mcp", 10_000);
        assertEquals("client-script/1", script.path("format").asText());
        assertEquals("{\"url\":\"http://localhost:41279/mcp\",\"bearer_token_env\":\"LAB_CONFORMANCE_TOKEN\"}",
                script.path("servers").path("suite").toString());
        JsonNode steps = script.path("steps");
        assertEquals("connect", steps.get(0).path("op").asText());
        assertEquals("close", steps.get(steps.size() - 1).path("op").asText());
        List<String> tools = new ArrayList<>();
        steps.forEach(step -> {
            if (step.path("op").asText().equals("call")) {
                tools.add(step.path("tool").asText());
            }
        });
        assertEquals(List.of("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"), tools);
        assertEquals("{\"confirmed\":true}", steps.get(1).path("answer").toString(), "the elicitation is accepted, as the mock asks");
        assertTrue(steps.get(3).path("answer").isMissingNode(), "a tool that asks nothing gets no answer");
    }

    @Test
    void theCustomHeadersScenarioCallsTheToolsTheSuiteNamesInItsContextWithTheirArgumentsAsGiven() {
        JsonNode context = lab.continuationreplay.vectors.ExactJson.parse("{\"toolCalls\":[{\"name\":\"test_custom_headers\","
                + "\"arguments\":{\"region\":\" padded \",\"priority\":42}},{\"name\":\"test_custom_headers_null\","
                + "\"arguments\":{\"verbose\":null}}]}");
        JsonNode steps = ClientScenario.CUSTOM_HEADERS.script("http://localhost:1/mcp", 10_000, context).path("steps");
        assertEquals("list_tools", steps.get(1).path("op").asText(), "the SDK learns the x-mcp-header marks from the list");
        assertEquals("test_custom_headers", steps.get(2).path("tool").asText());
        assertEquals("{\"region\":\" padded \",\"priority\":42}", steps.get(2).path("arguments").toString());
        assertEquals("{\"verbose\":null}", steps.get(3).path("arguments").toString(), "a null argument is sent as null");
        assertEquals("close", steps.get(4).path("op").asText());
        assertEquals(3, ClientScenario.CUSTOM_HEADERS.script("http://localhost:1/mcp", 10_000).path("steps").size(),
                "without a context there is nothing to call, and the suite's checks fail rather than pass");
    }

    @Test
    void onlyTheScenariosTheDriversCanPlayAreServed() {
        assertEquals(Optional.of(ClientScenario.TOOLS_CALL), ClientScenario.of("tools_call"));
        assertEquals(Optional.empty(), ClientScenario.of("http-standard-headers"), "needs resources/read and prompts/get");
        assertEquals(Optional.empty(), ClientScenario.of("auth/metadata-default"));
        assertEquals(Optional.empty(), ClientScenario.of("http-invalid-tool-headers"),
                "needs a step that calls every tool the SDK lists, which the drivers do not have");
    }

    @Test
    void theSuiteSplitsTheCommandOnSpacesSoAPathWithOneIsRefused() {
        ConformanceRun.Options options = new ConformanceRun.Options(Path.of("/home/a lab"), Path.of("/tmp/out"), List.of(), List.of(),
                "/opt/lab/lab.jar", System.err);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ConformanceRun.adapterCommand(options, ClientKind.JAVA, Path.of("/tmp/out/client-java/driver")));
        assertEquals("the conformance suite splits a client's command on spaces, and this one has a part with whitespace:"
                + " '/home/a lab'; run the lab from a path without spaces", refused.getMessage());
        ConformanceRun.Options plain = new ConformanceRun.Options(Path.of("/home/lab"), Path.of("/tmp/out"), List.of(), List.of(),
                "/opt/lab/lab.jar", System.err);
        String command = ConformanceRun.adapterCommand(plain, ClientKind.TYPESCRIPT, Path.of("/tmp/out/client-typescript/driver"));
        assertTrue(command.endsWith(" -cp /opt/lab/lab.jar lab.continuationreplay.conformance.suite.SuiteClientMain typescript /home/lab"
                + " /tmp/out/client-typescript/driver"), command);
    }
}
