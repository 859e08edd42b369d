package lab.continuationreplay.faults.stall;

/** How a stalled client stops: in the middle of its request head, or after the head in the middle of its body. */
enum StallKind {
    /** A request line and some headers, never the blank line that ends the head. */
    HALF_HEAD,
    /** A whole head announcing a body, then half the body and nothing more. */
    STALLED_BODY;

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
