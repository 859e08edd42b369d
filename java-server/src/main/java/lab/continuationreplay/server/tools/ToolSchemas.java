package lab.continuationreplay.server.tools;

/** Input and output schemas of the lab's tools (JSON Schema text, parsed by the SDK's mapper). */
final class ToolSchemas {
    static final String CREATE_GUARDED_ISSUE_INPUT = """
            {"type":"object","title":"create_guarded_issueArguments",
             "properties":{
               "operation_id":{"type":"string","title":"Operation Id"},
               "title":{"type":"string","title":"Title"},
               "mode":{"type":"string","title":"Mode","enum":["atomic","partial"],"default":"atomic"}},
             "required":["operation_id","title"],
             "additionalProperties":false}""";

    static final String CREATE_GUARDED_ISSUE_OUTPUT = """
            {"type":"object",
             "properties":{
               "operationId":{"type":"string"},
               "effectId":{"type":"integer"},
               "result":{"type":"string"},
               "replayed":{"type":"boolean"},
               "state":{"type":"string","enum":["applied","partial"]}},
             "required":["operationId","effectId","result","replayed","state"]}""";

    static final String OPERATION_STATUS_INPUT = """
            {"type":"object","title":"get_operation_statusArguments",
             "properties":{"operation_id":{"type":"string","title":"Operation Id"}},
             "required":["operation_id"],
             "additionalProperties":false}""";

    static final String OPERATION_STATUS_OUTPUT = """
            {"type":"object",
             "properties":{
               "operationId":{"type":"string"},
               "principal":{"type":"string"},
               "backend":{"type":"string"},
               "observedAt":{"type":"string"},
               "authoritative":{"type":"boolean"},
               "freshWriteAuthorized":{"type":"boolean","const":false},
               "scope":{"type":"string"},
               "scopeBinding":{"type":"object"},
               "state":{"type":"string","enum":["applied","partial","unknown"]},
               "matchingIds":{"type":"array","items":{"type":"integer"}},
               "detail":{"type":"string"},
               "storedResult":{"type":["string","null"]}},
             "required":["operationId","principal","backend","observedAt","authoritative","freshWriteAuthorized",
                         "scope","scopeBinding","state","matchingIds","detail","storedResult"]}""";

    static final String CREATE_ISSUE_INPUT = """
            {"type":"object","title":"create_issueArguments",
             "properties":{"title":{"type":"string","title":"Title"}},
             "required":["title"],
             "additionalProperties":false}""";

    private ToolSchemas() {}
}
