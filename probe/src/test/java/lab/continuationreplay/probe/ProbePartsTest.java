package lab.continuationreplay.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

/** The probe's pure parts: fresh values, default answers, changed answers and arguments. */
class ProbePartsTest {

    @Test
    void aFreshPlaceholderBecomesTheCallsValueEverywhereAndTheTemplateStays() {
        JsonNode template = ExactJson.parse("{\"id\":\"op-{{fresh}}\",\"tags\":[\"{{fresh}}\",\"x\"],\"n\":1,\"o\":{\"k\":\"{{fresh}}-{{fresh}}\"}}");
        JsonNode call = FreshValues.apply(template, "v1");
        assertEquals(ExactJson.parse("{\"id\":\"op-v1\",\"tags\":[\"v1\",\"x\"],\"n\":1,\"o\":{\"k\":\"v1-v1\"}}"), call);
        assertTrue(FreshValues.used(template));
        assertFalse(FreshValues.used(call));
        assertEquals("op-{{fresh}}", template.path("id").asText());
    }

    @Test
    void aFormIsAnsweredFromItsSchemaAndAGivenAnswerWins() {
        JsonNode requests = ExactJson.parse("""
                {"form":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object",
                  "properties":{"d":{"type":"string","default":"dv"},"b":{"type":"boolean"},"s":{"type":"string"},
                  "n":{"type":"integer","minimum":3},"z":{"type":"number"},"e":{"type":"string","enum":["a","b"]},
                  "c":{"type":"string","oneOf":[{"const":"c1"},{"const":"c2"}]}}}}},
                 "sample":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}},
                 "roots":{"method":"roots/list","params":{}},
                 "mine":{"method":"elicitation/create","params":{}}}""");
        ObjectNode responses = new InputAnswers(Map.of("mine", ExactJson.parse("{\"action\":\"decline\"}"))).responses(requests);
        assertEquals(ExactJson.parse("{\"action\":\"accept\",\"content\":{\"d\":\"dv\",\"b\":true,\"s\":\"probe\",\"n\":3,\"z\":0,\"e\":\"a\",\"c\":\"c1\"}}"),
                responses.get("form"));
        assertEquals("assistant", responses.path("sample").path("role").asText());
        assertEquals("text", responses.path("sample").path("content").path("type").asText());
        assertEquals(ExactJson.parse("{\"roots\":[]}"), responses.get("roots"));
        assertEquals(ExactJson.parse("{\"action\":\"decline\"}"), responses.get("mine"));
    }

    @Test
    void aRequestOfAnUnknownKindIsBadInputNamingTheOptionToFix() {
        ProbeInputException refused = assertThrows(ProbeInputException.class, () -> new InputAnswers(Map.of())
                .responses(ExactJson.parse("{\"k\":{\"method\":\"tasks/get\",\"params\":{}}}")));
        assertTrue(refused.getMessage().contains("--answer k=JSON"), refused.getMessage());
    }

    @Test
    void changedAnswersChangeOneValueOrDecline() {
        ObjectNode text = (ObjectNode) ExactJson.parse("{\"a\":{\"action\":\"accept\",\"content\":{\"body\":\"alpha\",\"n\":1}}}");
        assertEquals("alpha-changed", InputAnswers.changed(text).path("a").path("content").path("body").asText());
        assertEquals("alpha", text.path("a").path("content").path("body").asText(), "the original stays");
        ObjectNode flag = (ObjectNode) ExactJson.parse("{\"a\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}");
        assertFalse(InputAnswers.changed(flag).path("a").path("content").path("ok").asBoolean());
        ObjectNode bare = (ObjectNode) ExactJson.parse("{\"a\":{\"action\":\"accept\"}}");
        assertEquals("decline", InputAnswers.changed(bare).path("a").path("action").asText());
    }

    @Test
    void changedArgumentsChangeTheFirstRequiredStringThatIsNoFreshValue() {
        JsonNode template = ExactJson.parse("{\"operation_id\":\"op-{{fresh}}\",\"title\":\"t\",\"mode\":\"atomic\"}");
        JsonNode schema = ExactJson.parse("{\"required\":[\"operation_id\",\"title\"],\"properties\":{\"mode\":{\"enum\":[\"atomic\",\"partial\"]}}}");
        JsonNode changed = ProbeRunner.changedArguments(FreshValues.apply(template, "v"), template, schema);
        assertEquals(ExactJson.parse("{\"operation_id\":\"op-v\",\"title\":\"t-changed\",\"mode\":\"atomic\"}"), changed);
        JsonNode onlyEnum = ExactJson.parse("{\"mode\":\"atomic\"}");
        assertEquals("partial", ProbeRunner.changedArguments(onlyEnum, onlyEnum, schema).path("mode").asText());
        JsonNode allFresh = ExactJson.parse("{\"operation_id\":\"{{fresh}}\",\"n\":1}");
        assertNull(ProbeRunner.changedArguments(FreshValues.apply(allFresh, "v"), allFresh, schema));
    }

    @Test
    void badOptionsAreRefusedBeforeAnythingRuns() {
        ProbeOptions.Target target = new ProbeOptions.Target.Command("true");
        assertThrows(ProbeInputException.class, () -> new ProbeOptions(target, " ", ExactJson.parse("{}"), Map.of(),
                new ProbeOptions.Observer.None(), null, java.nio.file.Path.of("x"),
                ProbeOptions.Tuning.defaults(java.time.Duration.ofSeconds(1))));
        assertThrows(ProbeInputException.class, () -> new ProbeOptions(target, "t", ExactJson.parse("[]"), Map.of(),
                new ProbeOptions.Observer.None(), null, java.nio.file.Path.of("x"),
                ProbeOptions.Tuning.defaults(java.time.Duration.ofSeconds(1))));
        assertThrows(ProbeInputException.class, () -> new ProbeOptions.Target.Command(" "));
    }

    @Test
    void aStateIsTamperedWithinItsAlphabetAndADecodableOneIsForgedWithoutAMac() {
        String sealed = "v1.abcdefghij-_XYZ";
        java.util.List<StateTampering.Variant> variants = StateTampering.variants(sealed);
        assertEquals(java.util.List.of("character-changed", "truncated"), variants.stream().map(StateTampering.Variant::name).toList());
        assertEquals(sealed.length(), variants.get(0).state().length());
        assertFalse(variants.get(0).state().equals(sealed));
        assertTrue(variants.get(1).state().length() < sealed.length());

        String json = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"op\":\"o1\",\"n\":1}".getBytes());
        String forged = StateTampering.decodedFieldChanged(json);
        assertEquals("{\"op\":\"o1x\",\"n\":1}", new String(java.util.Base64.getUrlDecoder().decode(forged)));

        String payload = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"sub\":\"alice\"}".getBytes());
        String jwt = "eyJhbGciOiJIUzI1NiJ9." + payload + ".c2lnbmF0dXJl";
        String unsigned = StateTampering.decodedFieldChanged(jwt);
        assertTrue(unsigned.startsWith("eyJhbGciOiJIUzI1NiJ9.") && unsigned.endsWith("."), unsigned);
        assertEquals("{\"sub\":\"alicex\"}", new String(java.util.Base64.getUrlDecoder().decode(unsigned.split("\\.")[1])));
        assertEquals("{\"a\":true}", StateTampering.decodedFieldChanged("{\"a\":false}"));
        assertNull(StateTampering.decodedFieldChanged("opaque"));
    }
}
