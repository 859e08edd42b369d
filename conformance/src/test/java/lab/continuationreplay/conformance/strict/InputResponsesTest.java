package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

class InputResponsesTest {
    @Test
    void eachKindOfInputRequestGetsAnAnswerOfItsKind() {
        var requests = ExactJson.parse("""
                {"confirm":{"method":"elicitation/create","params":{"message":"Please confirm","requestedSchema":
                  {"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}},
                 "who":{"method":"elicitation/create","params":{"requestedSchema":{"type":"object","properties":
                  {"name":{"type":"string"},"age":{"type":"integer","minimum":18},"colour":{"type":"string","enum":["red","blue"]}}}}},
                 "capital":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}},
                 "roots":{"method":"roots/list"},
                 "bare":{"method":"elicitation/create","params":{"message":"no schema"}}}""");
        assertEquals(ExactJson.parse("""
                {"confirm":{"action":"accept","content":{"ok":true}},
                 "who":{"action":"accept","content":{"name":"strict-check","age":18,"colour":"red"}},
                 "capital":{"role":"assistant","content":{"type":"text","text":"strict-check"},"model":"strict-check","stopReason":"endTurn"},
                 "roots":{"roots":[{"uri":"file:///strict-check","name":"strict-check"}]},
                 "bare":{"action":"accept","content":{"ok":true}}}""").toString(), InputResponses.answering(requests).toString());
    }
}
