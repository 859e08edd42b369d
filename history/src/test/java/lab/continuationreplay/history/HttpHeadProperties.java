package lab.continuationreplay.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.history.HttpHead.Header;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The law the checker relies on: a head read back from its JSON is the head that was written ({@code parse(json(h))
 * == h}), and it stays one transcript line. Text is any Unicode without unpaired surrogates (what a Java string from
 * the wire, read as ISO-8859-1, or from the lab's own code can hold), control characters and line ends included.
 */
class HttpHeadProperties {
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> any = Arbitraries.strings()
                .withCharRange('\u0000', '\u00ff')
                .withCharRange('\u0100', '\ud7ff')
                .withCharRange('\ue000', '\ufffd')
                .ofMaxLength(24);
        Arbitrary<String> astral = Arbitraries.integers().between(0x10000, 0x10FFFF).map(Character::toString);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, any),
                net.jqwik.api.Tuple.of(1, astral),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("", "\r\n", "\n", "\"", "\\", "Bearer [token of alice]")));
    }

    @Provide
    Arbitrary<HttpHead> heads() {
        Arbitrary<Integer> numbers = Arbitraries.integers();
        Arbitrary<Header> header = Combinators.combine(texts(), texts()).as(Header::new);
        Arbitrary<List<Header>> headers = header.list().ofMaxSize(6);
        Arbitrary<HttpHead> requests = Combinators.combine(numbers, numbers, texts(), headers).as(HttpHead::request);
        Arbitrary<HttpHead> responses = Combinators.combine(numbers, numbers, numbers, headers).as(HttpHead::response);
        Arbitrary<HttpHead> ended = Combinators.combine(numbers, numbers, texts()).as(HttpHead::noResponse);
        Arbitrary<HttpHead> anyShape = Combinators.combine(numbers, numbers, texts().injectNull(0.3), numbers,
                texts().injectNull(0.5), headers).as(HttpHead::new);
        return Arbitraries.oneOf(requests, responses, ended, anyShape);
    }

    @Property(tries = 500)
    void aHeadReadBackFromItsJsonIsTheSameHead(@ForAll("heads") HttpHead head) throws FormatException {
        assertEquals(head, HttpHead.parse(head.json(), "generated"));
    }

    @Property(tries = 200)
    void aHeadIsOneLineThatTheTranscriptGivesBackUnchanged(@ForAll("heads") HttpHead head) throws Exception {
        String json = head.json();
        assertFalse(json.contains("\n") || json.contains("\r"), json);
        Path file = Files.createTempFile("head-", ".transcript.log");
        try {
            try (Transcript t = new Transcript(file)) {
                t.response(head, "{}".getBytes(StandardCharsets.UTF_8));
            }
            List<Transcript.Line> lines = Transcript.read(file);
            assertEquals(2, lines.size());
            assertEquals(head, HttpHead.parse(lines.get(0).text(), file.getFileName().toString()));
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
