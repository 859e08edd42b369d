//! What rmcp 3.11.0 itself does, with no driver code in between (docs/findings/rust-client-failed-initialize-kills-the-server.md).

use std::path::PathBuf;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;

/// A failed or timed-out initialize drops the child-process transport, and the drop kills the server at once: its
/// input is never closed, so it cannot finish what it does on the end of its input. rmcp's own close (after a
/// successful initialize) closes the input first and waits.
#[test]
fn a_timed_out_initialize_kills_the_server_without_closing_its_input() {
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
            .arg(format!("cat > /dev/null; echo finished > '{}'", ended.display()));
        let transport = TokioChildProcess::new(command).expect("spawned");
        let served = tokio::time::timeout(Duration::from_millis(300), ().serve(transport)).await;
        assert!(served.is_err(), "the silent server cannot have answered initialize");
        tokio::time::sleep(Duration::from_millis(700)).await;
    });
    let finished = ended.exists();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !finished,
        "the server saw the end of its input: rmcp closed it before the kill"
    );
}
