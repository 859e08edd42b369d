package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;

/** A step's place in the script: its index, and for an inner step of {@code parallel} its index inside that. */
public record StepId(int index, Integer inner) {
    public static StepId top(int index) {
        return new StepId(index, null);
    }

    public StepId inside(int innerIndex) {
        return new StepId(index, innerIndex);
    }

    /** The record's {@code step}: a number for a top-level step, {@code "3.1"} for an inner one. */
    public JsonNode toJson() {
        return inner == null ? IntNode.valueOf(index) : TextNode.valueOf(toString());
    }

    @Override
    public String toString() {
        return inner == null ? Integer.toString(index) : index + "." + inner;
    }
}
