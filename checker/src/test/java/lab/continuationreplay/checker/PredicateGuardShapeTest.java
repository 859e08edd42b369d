package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Cases;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The guard's refusal shape is held to the SDK an attempt is of, whatever the transport: {@code java-http} and
 * {@code http-cases-java} are held to Java's shape as {@code java} is, and a cross-SDK cell to neither.
 */
class PredicateGuardShapeTest {
    @TempDir
    Path folder;

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"create_guarded_issue\","
            + "\"arguments\":{\"operation_id\":\"c-1\",\"title\":\"t\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}";
    private static final String AS_TOOL_RESULT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"isError\":true,"
            + "\"content\":[{\"type\":\"text\",\"text\":\"operation_authority_expired\"}]}}";
    private static final String AS_JSONRPC_ERROR = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32010,"
            + "\"message\":\"operation_authority_expired\"}}";

    private List<String> guardShapeProblems(String attempt, String refusal) throws Exception {
        Files.writeString(folder.resolve("server.transcript.log"),
                ">h {\"exchange\":1,\"connection\":1,\"request\":\"POST /mcp HTTP/1.1\",\"headers\":[]}\n> " + CALL + "\n"
                        + "<h {\"exchange\":1,\"connection\":1,\"status\":200,\"headers\":[[\"Content-Type\",\"application/json\"]]}\n< "
                        + refusal + "\n");
        CaseFacts facts = new CaseFacts(WireFacts.read(folder, List.of("server")),
                new DbFacts(List.of(), List.of(), List.of(), List.of(), List.of()), List.of());
        CaseSpec spec = Cases.spec(CaseId.of("07"));
        return Predicate.violations(spec, facts, attempt).stream().filter(p -> p.contains("must refuse through")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            java                     | java must refuse through jsonrpc_error
            java-http                | java must refuse through jsonrpc_error
            http-cases-java          | java must refuse through jsonrpc_error
            typescript               | ''
            typescript-http          | ''
            http-cases-typescript    | ''
            cross-java-to-typescript | ''
            """)
    void aToolResultRefusalIsJavasDefectOnEitherTransport(String attempt, String problem) throws Exception {
        assertEquals(problem.isEmpty() ? List.of() : List.of(problem), guardShapeProblems(attempt, AS_TOOL_RESULT));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            java                     | ''
            java-http                | ''
            typescript               | typescript must refuse through tool_result_isError
            typescript-http          | typescript must refuse through tool_result_isError
            http-cases-typescript    | typescript must refuse through tool_result_isError
            cross-typescript-to-java | ''
            """)
    void aJsonRpcErrorRefusalIsTypescriptsDefectOnEitherTransport(String attempt, String problem) throws Exception {
        assertEquals(problem.isEmpty() ? List.of() : List.of(problem), guardShapeProblems(attempt, AS_JSONRPC_ERROR));
    }
}
