package lab.continuationreplay.history;

/**
 * The files of a {@code lab versions} run: {@code versions-run.json} (the releases asked for), and per release
 * {@code <sdk>-<version>/} with {@code build.json}, {@code build.log}, and when it built, the matrix's own folder
 * {@code matrix/} and its exit; the checker writes {@code versions.json} and {@code VERSIONS.md}.
 */
public final class VersionsLayout {
    public static final String RUN_FILE = "versions-run.json";
    public static final String RUN_FORMAT = "versions-run/1";
    public static final String BUILD_FILE = "build.json";
    public static final String BUILD_FORMAT = "release-build/1";
    public static final String BUILD_LOG = "build.log";
    public static final String MATRIX_FOLDER = "matrix";
    public static final String MATRIX_EXIT = "matrix.exit.json";
    public static final String TABLE_FILE = "versions.json";
    public static final String TABLE_FORMAT = "versions/1";
    public static final String TABLE_MD = "VERSIONS.md";

    private VersionsLayout() {}
}
