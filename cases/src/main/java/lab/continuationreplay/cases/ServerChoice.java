package lab.continuationreplay.cases;

/** Which server a script starts: the SDK under test, or a named one (cross-SDK cells, controls). */
public enum ServerChoice {
    UNDER_TEST,
    JAVA,
    TYPESCRIPT,
    PYTHON,
    GO,
    RUST,
    /** The seed's unguarded server: the controls' witness that the guard is what prevents duplicates. */
    UNGUARDED
}
