//! The harness's Python virtualenv, made on first use: when the default venv
//! (`$SOFTPIPE_VENV`, else `<workspace>/target/softpipe-venv`) has no Python, or was set up for
//! other requirements, [`ensure`] creates it with the system's `python3 -m venv` and installs
//! `tests/softpipe/requirements.txt` into it with pip (from PyPI), so that `cargo test
//! --workspace` runs the softpipe comparison without a separate set-up step.
//!
//! A stamp file in the venv holds the requirements it was made for: a venv whose stamp differs
//! (requirements changed, or an install cut short) is installed into again. Several test
//! processes may start at once, so the work happens under an exclusive lock on a file beside
//! the venv. `$SOFTPIPE_PYTHON` (a Python chosen by hand) is used as it is.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;

use super::error::SoftpipeError;

/// The stamp file inside the venv.
const STAMP: &str = "agxc-requirements.txt";

/// The requirements file the venv is made for.
pub fn requirements() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("softpipe")
        .join("requirements.txt")
}

fn unavailable(what: String) -> SoftpipeError {
    SoftpipeError::Unavailable(what)
}

fn tail(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(10)..].join("\n")
}

fn run(cmd: &mut Command, what: &str) -> Result<(), SoftpipeError> {
    let out = cmd
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .map_err(|e| unavailable(format!("{what}: {e}")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(unavailable(format!(
            "{what} failed ({}): {}",
            out.status,
            tail(&out.stderr)
        )))
    }
}

/// Makes sure the venv at `venv` exists with the current requirements installed; returns its
/// Python. Needs `python3` (with the `venv` module: Debian's `python3-venv`) on `PATH` when the
/// venv must be made.
pub fn ensure(venv: &Path) -> Result<PathBuf, SoftpipeError> {
    let python = venv.join("bin").join("python");
    let reqs_path = requirements();
    let reqs = fs::read_to_string(&reqs_path)
        .map_err(|e| unavailable(format!("{}: {e}", reqs_path.display())))?;
    let stamp = venv.join(STAMP);
    let current =
        |python: &Path| python.is_file() && fs::read_to_string(&stamp).is_ok_and(|s| s == reqs);
    if current(&python) {
        return Ok(python);
    }
    let parent = venv.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| unavailable(format!("{}: {e}", parent.display())))?;
    let lock_path = venv.with_extension("lock");
    let lock = File::create(&lock_path)
        .map_err(|e| unavailable(format!("{}: {e}", lock_path.display())))?;
    lock.lock()
        .map_err(|e| unavailable(format!("locking {}: {e}", lock_path.display())))?;
    // Another process may have finished the work while this one waited.
    if current(&python) {
        return Ok(python);
    }
    crate::corpus::announce(&format!(
        "softpipe: setting up the harness's Python in {} (first use: python3 -m venv, pip \
         install -r {})",
        venv.display(),
        reqs_path.display()
    ));
    if !python.is_file() {
        run(
            Command::new("python3").arg("-m").arg("venv").arg(venv),
            "python3 -m venv",
        )?;
    }
    run(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "-r"])
            .arg(&reqs_path),
        "pip install",
    )?;
    fs::write(&stamp, &reqs).map_err(|e| unavailable(format!("{}: {e}", stamp.display())))?;
    Ok(python)
}
