//! Parsing of the `agxc run` resource arguments (`--buffer 0.1=x.bin`,
//! `--groups 4,1,1`, `--size 16x16`, `--clear 0,0,0,nan`).
//!
//! Each parser returns a [`SpecError`] naming the argument and what was wrong, so the command line
//! reports one clear line instead of a panic or a clap usage dump.

use std::path::PathBuf;

/// A malformed argument value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{value}`: {reason}")]
pub struct SpecError {
    /// The value as given.
    pub value: String,
    /// What is wrong with it.
    pub reason: String,
}

fn err(value: &str, reason: impl Into<String>) -> SpecError {
    SpecError {
        value: value.to_string(),
        reason: reason.into(),
    }
}

/// A descriptor binding written `[SET.]BINDING` (set 0 when omitted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BindingSpec {
    /// Descriptor set.
    pub set: u32,
    /// Binding.
    pub binding: u32,
}

fn parse_u32(text: &str, whole: &str, what: &str) -> Result<u32, SpecError> {
    text.trim().parse().map_err(|_| {
        err(
            whole,
            format!("{what} `{text}` is not a non-negative integer"),
        )
    })
}

/// Parses `[SET.]BINDING`.
pub fn binding(text: &str) -> Result<BindingSpec, SpecError> {
    match text.split_once('.') {
        Some((set, binding)) => Ok(BindingSpec {
            set: parse_u32(set, text, "set")?,
            binding: parse_u32(binding, text, "binding")?,
        }),
        None => Ok(BindingSpec {
            set: 0,
            binding: parse_u32(text, text, "binding")?,
        }),
    }
}

/// `[SET.]BINDING=FILE` (`--buffer`, `--out`).
pub fn binding_file(text: &str) -> Result<(BindingSpec, PathBuf), SpecError> {
    let (b, file) = text
        .split_once('=')
        .ok_or_else(|| err(text, "expected [SET.]BINDING=FILE"))?;
    if file.is_empty() {
        return Err(err(text, "missing file name after `=`"));
    }
    Ok((binding(b)?, PathBuf::from(file)))
}

/// `[SET.]BINDING=BYTES` (`--buffer-size`).
pub fn binding_size(text: &str) -> Result<(BindingSpec, u64), SpecError> {
    let (b, size) = text
        .split_once('=')
        .ok_or_else(|| err(text, "expected [SET.]BINDING=BYTES"))?;
    let size = size
        .trim()
        .parse()
        .map_err(|_| err(text, format!("size `{size}` is not a byte count")))?;
    Ok((binding(b)?, size))
}

/// `N=FILE` (`--const`).
pub fn index_file(text: &str) -> Result<(u32, PathBuf), SpecError> {
    let (n, file) = text
        .split_once('=')
        .ok_or_else(|| err(text, "expected N=FILE"))?;
    if file.is_empty() {
        return Err(err(text, "missing file name after `=`"));
    }
    Ok((parse_u32(n, text, "index")?, PathBuf::from(file)))
}

/// `X[,Y[,Z]]` (`--groups`); missing counts are 1, and zero is rejected.
pub fn groups(text: &str) -> Result<[u32; 3], SpecError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(err(text, "expected X[,Y[,Z]]"));
    }
    let mut out = [1u32; 3];
    for (slot, part) in out.iter_mut().zip(&parts) {
        *slot = parse_u32(part, text, "group count")?;
        if *slot == 0 {
            return Err(err(text, "group counts must be at least 1"));
        }
    }
    Ok(out)
}

/// `WxH` (`--size`); zero is rejected.
pub fn size(text: &str) -> Result<[u32; 2], SpecError> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| err(text, "expected WIDTHxHEIGHT"))?;
    let (w, h) = (parse_u32(w, text, "width")?, parse_u32(h, text, "height")?);
    if w == 0 || h == 0 {
        return Err(err(text, "width and height must be at least 1"));
    }
    Ok([w, h])
}

/// `R,G,B,A` (`--clear`); each a float, `nan`/`inf`/`-inf` accepted.
pub fn clear(text: &str) -> Result<[f32; 4], SpecError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 4 {
        return Err(err(text, "expected four comma-separated values R,G,B,A"));
    }
    let mut out = [0f32; 4];
    for (slot, part) in out.iter_mut().zip(&parts) {
        *slot = part
            .trim()
            .to_ascii_lowercase()
            .parse()
            .map_err(|_| err(text, format!("`{part}` is not a number")))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings() {
        assert_eq!(binding("3"), Ok(BindingSpec { set: 0, binding: 3 }));
        assert_eq!(binding("1.2"), Ok(BindingSpec { set: 1, binding: 2 }));
        assert!(binding("a.2").is_err());
        assert!(binding("-1").is_err());
        let (b, f) = binding_file("0.1=out.bin").unwrap();
        assert_eq!((b.set, b.binding, f), (0, 1, PathBuf::from("out.bin")));
        assert!(binding_file("1").is_err());
        assert!(binding_file("1=").is_err());
        assert_eq!(binding_size("2=4096").unwrap().1, 4096);
        assert!(binding_size("2=lots").is_err());
        assert_eq!(index_file("1=c.bin").unwrap().0, 1);
    }

    #[test]
    fn grids() {
        assert_eq!(groups("4"), Ok([4, 1, 1]));
        assert_eq!(groups("4,2"), Ok([4, 2, 1]));
        assert_eq!(groups("4,2,3"), Ok([4, 2, 3]));
        assert!(groups("4,2,3,1").is_err());
        assert!(groups("0").is_err());
        assert_eq!(size("16x8"), Ok([16, 8]));
        assert!(size("16").is_err());
        assert!(size("0x8").is_err());
    }

    #[test]
    fn clear_colours() {
        assert_eq!(clear("0,0.5,1,-2"), Ok([0.0, 0.5, 1.0, -2.0]));
        let c = clear("nan,inf,-inf,0").unwrap();
        assert!(c[0].is_nan() && c[1] == f32::INFINITY && c[2] == f32::NEG_INFINITY);
        assert!(clear("1,2,3").is_err());
        assert!(clear("1,2,3,x").is_err());
    }
}
