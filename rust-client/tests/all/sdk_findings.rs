//! What rmcp 3.11.0 itself does, with no driver code in between (docs/findings/rust-client-failed-initialize-kills-the-server.md).

use std::path::PathBuf;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;

/// A failed or timed-out initialize drops the child-process transport: the drop closes the server's input and kills it
/// in the same moment, so a server that needs any time after the end of its input to finish is killed first. rmcp's
/// own close (after a successful initialize) closes the input first and waits. The server here takes 300 ms after the
/// end of its input: a first form that finished at once passed the kill under load once, the race being that narrow.
#[test]
fn a_timed_out_initialize_kills_the_server_without_waiting_for_it() {
    let dir = std::env::temp_dir().join(format!("rust-client-sdk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let ended: PathBuf = dir.join("ended");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let mut command = tokio::process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("cat > /dev/null; sleep 0.3; echo finished > '{}'", ended.display()));
        let transport = TokioChildProcess::new(command).expect("spawned");
        let served = tokio::time::timeout(Duration::from_millis(300), ().serve(transport)).await;
        assert!(served.is_err(), "the silent server cannot have answered initialize");
        // Without the kill the file would be there 300 ms after the drop; a second leaves room for a loaded machine.
        tokio::time::sleep(Duration::from_millis(1000)).await;
    });
    let finished = ended.exists();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !finished,
        "the server finished after the end of its input: rmcp closed its input and waited instead of killing it"
    );
}
