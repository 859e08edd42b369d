package lab.continuationreplay.vectors;

/** One input line of the fingerprint CLIs: a LogicalRequest, with a name when the line gave one. */
public record NamedRequest(String name, LogicalRequest request) {}
