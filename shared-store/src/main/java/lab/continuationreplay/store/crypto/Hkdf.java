package lab.continuationreplay.store.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF-SHA256 (RFC 5869) with an all-zero salt. The Java server derives its requestState key with it, and the fault
 * lab's token forge derives the same key to mint tokens the server must refuse; one implementation serves both.
 */
public final class Hkdf {
    private Hkdf() {}

    public static byte[] sha256(byte[] inputKey, byte[] info, int length) {
        try {
            Mac extract = Mac.getInstance("HmacSHA256");
            extract.init(new SecretKeySpec(new byte[32], "HmacSHA256"));
            byte[] pseudoRandomKey = extract.doFinal(inputKey);
            Mac expand = Mac.getInstance("HmacSHA256");
            expand.init(new SecretKeySpec(pseudoRandomKey, "HmacSHA256"));
            ByteBuffer out = ByteBuffer.allocate(length);
            byte[] block = new byte[0];
            for (int counter = 1; out.hasRemaining(); counter++) {
                expand.update(block);
                expand.update(info);
                expand.update((byte) counter);
                block = expand.doFinal();
                out.put(block, 0, Math.min(block.length, out.remaining()));
            }
            return out.array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }
}
