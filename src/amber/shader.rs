//! Turning a script's shader source into SPIR-V: GLSL through `glslangValidator`, SPIR-V
//! assembly through `spirv-as` (both the installed Khronos tools), hex directly.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use super::parse::{ShaderSource, StageKind};

/// A scratch directory entry removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn scratch(ext: &str) -> Scratch {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    Scratch(std::env::temp_dir().join(format!("agxc-amber-{}-{n}.{ext}", std::process::id())))
}

fn tool(name: &str, args: &[&std::ffi::OsStr]) -> Result<(), String> {
    let out = Command::new(name).args(args).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("`{name}` is not installed (needed for this shader; see the README's apt line)")
        } else {
            format!("running `{name}`: {e}")
        }
    })?;
    if out.status.success() {
        return Ok(());
    }
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let first = text
        .lines()
        .find(|l| l.contains("ERROR") || l.contains("error"))
        .or_else(|| text.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("failed")
        .trim()
        .to_string();
    Err(format!("`{name}`: {first}"))
}

/// SPIR-V for a shader; `None` for the passthrough vertex shader.
pub fn spirv(
    source: &ShaderSource,
    stage: StageKind,
    target_env: Option<&str>,
) -> Result<Option<Vec<u8>>, String> {
    let (text, ext) = match source {
        ShaderSource::Passthrough => return Ok(None),
        ShaderSource::SpirvHex(hex) => return hex_bytes(hex).map(Some),
        ShaderSource::Glsl(t) => (
            t,
            match stage {
                StageKind::Vertex => "vert",
                StageKind::Fragment => "frag",
                StageKind::Compute => "comp",
            },
        ),
        ShaderSource::SpirvAsm(t) => (t, "spvasm"),
    };
    let input = scratch(ext);
    let output = scratch("spv");
    std::fs::write(&input.0, text).map_err(|e| format!("writing a scratch file: {e}"))?;
    let o = output.0.as_os_str();
    let i = input.0.as_os_str();
    if matches!(source, ShaderSource::Glsl(_)) {
        // glslang spells SPIR-V versions `spirv1.3`; AmberScript `spv1.3`.
        let env = target_env.map(|e| match e.strip_prefix("spv") {
            Some(v) => format!("spirv{v}"),
            None => e.to_string(),
        });
        let mut args: Vec<&std::ffi::OsStr> = vec!["-V".as_ref()];
        if let Some(env) = &env {
            args.push("--target-env".as_ref());
            args.push(env.as_ref());
        }
        args.extend([std::ffi::OsStr::new("-o"), o, i]);
        tool("glslangValidator", &args)?;
    } else {
        let env = target_env.unwrap_or("spv1.0");
        tool(
            "spirv-as",
            &["--target-env".as_ref(), env.as_ref(), "-o".as_ref(), o, i],
        )?;
    }
    std::fs::read(&output.0)
        .map(Some)
        .map_err(|e| format!("reading the compiled shader: {e}"))
}

/// SPIR-V written as hex: whitespace-separated bytes in file order (`03 02 23 07 ...`), or
/// 32-bit words written `0x07230203`.
fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for tok in text.split_whitespace() {
        let bad = || format!("`{tok}` is not a hex byte or word");
        match tok.strip_prefix("0x") {
            Some(w) if w.len() == 8 => {
                out.extend(u32::from_str_radix(w, 16).map_err(|_| bad())?.to_le_bytes())
            }
            None if tok.len() == 2 => out.push(u8::from_str_radix(tok, 16).map_err(|_| bad())?),
            _ => return Err(bad()),
        }
    }
    Ok(out)
}
