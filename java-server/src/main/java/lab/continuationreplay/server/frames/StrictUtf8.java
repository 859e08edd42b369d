package lab.continuationreplay.server.frames;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Whether a line is UTF-8 text, decoded strictly (malformed, overlong, surrogate and truncated sequences are errors,
 * never U+FFFD), and whether that text is blank as the SDK sees it ({@link String#isBlank()}). Decodes through a small
 * buffer, so a large line costs no copy.
 */
public final class StrictUtf8 {
    public enum Text { INVALID, BLANK, CONTENT }

    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final CharBuffer chars = CharBuffer.allocate(4096);

    public Text classify(byte[] bytes, int offset, int length) {
        decoder.reset();
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
        boolean blank = true;
        CoderResult result;
        do {
            chars.clear();
            result = decoder.decode(in, chars, true);
            if (result.isError()) {
                return Text.INVALID;
            }
            blank = blank && whitespace(chars);
        } while (result.isOverflow());
        chars.clear();
        if (decoder.flush(chars).isError()) {
            return Text.INVALID;
        }
        return blank && whitespace(chars) ? Text.BLANK : Text.CONTENT;
    }

    /** {@link String#isBlank()} on the decoded chars: a surrogate half is never whitespace, as its code point is not. */
    private static boolean whitespace(CharBuffer decoded) {
        decoded.flip();
        while (decoded.hasRemaining()) {
            if (!Character.isWhitespace(decoded.get())) {
                return false;
            }
        }
        return true;
    }
}
