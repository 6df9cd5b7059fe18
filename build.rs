//! Links the `agxc` command as a position-dependent executable on Linux with the GNU toolchain.
//!
//! Why: a position-independent executable is relocated by the dynamic loader at every start,
//! about 17,000 relocations for this binary (`readelf -r`; 130 linked this way), which also
//! write to (and so fault in) every page of tables that hold addresses. A compile of a small
//! shader costs a few milliseconds, so that is a fixed cost worth removing: measured with
//! `perf stat -r 40` (issue 19, start-up), `agxc --version` 193 -> 121 page faults and
//! 0.73 M -> 0.51 M instructions (callgrind), a compile of an empty shader 289 -> 224 faults.
//! The code is still compiled position-independent (only the link changes), so libraries and
//! tests are unaffected.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
