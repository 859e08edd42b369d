package lab.continuationreplay.cases;

/** The calls a case makes, the same for every SDK. */
@FunctionalInterface
public interface CaseScript {
    void run(CaseSteps steps) throws Exception;
}
