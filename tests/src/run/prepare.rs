//! From a case directory to a verified function and its launch, per source language.

use std::fs;
use std::path::PathBuf;

use agxc_egraph::ir::{verify, Function};
use agxc_frontend::{spirv, tgsi};

use super::error::RunError;
use super::launch::{Conventions, Launch};
use super::tgsi::TgsiInterface;
use crate::corpus::{corpus_dir, Case};
use crate::softpipe::{generated_corpus_dir, TgsiBindings};

/// A corpus's source language, which decides the front end, the oracle's conventions and the
/// lift options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// `shader.spv`, lifted by `agxc_frontend::spirv`; recorded by lavapipe.
    Spirv,
    /// `shader.tgsi` with `tgsi.toml`, lifted by `agxc_frontend::tgsi`; recorded by softpipe.
    Tgsi,
}

impl Language {
    /// The directory of the corpus cases with recorded outputs.
    pub fn corpus_dir(self) -> PathBuf {
        match self {
            Language::Spirv => corpus_dir("spirv"),
            Language::Tgsi => generated_corpus_dir(),
        }
    }

    /// The corpus's name (`spirv`, `tgsi`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Spirv => "spirv",
            Language::Tgsi => "tgsi",
        }
    }

    /// The oracle that recorded the expected outputs.
    pub fn oracle(self) -> &'static str {
        match self {
            Language::Spirv => "lavapipe",
            Language::Tgsi => "softpipe",
        }
    }
}

/// A lifted, verified function and the launch that runs it on the case's inputs.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The case's entry point in the IR.
    pub func: Function,
    /// Its resources, dispatch or draw, and outputs.
    pub launch: Launch,
}

/// Lifts `case`'s shader, verifies it, and builds its launch from the generated inputs.
pub fn prepare(case: &Case, language: Language) -> Result<Prepared, RunError> {
    let inputs = case.inputs();
    let (func, launch) = match language {
        Language::Spirv => {
            let words = case.spv_words()?;
            let options = spirv::LiftOptions {
                entry: Some(case.manifest.entry.clone()),
                ..spirv::LiftOptions::default()
            };
            let func = spirv::lift(&words, &options).map_err(|source| RunError::SpirvLift {
                case: case.name.clone(),
                source,
            })?;
            (
                func,
                Launch::new(case, &inputs, Conventions::SPIRV_LAVAPIPE)?,
            )
        }
        Language::Tgsi => {
            let path = case.dir.join("shader.tgsi");
            let text = fs::read_to_string(&path).map_err(|source| RunError::Io {
                path: path.clone(),
                source,
            })?;
            let map = TgsiBindings::load(&case.dir)?;
            let interface = TgsiInterface::new(case, &map)?;
            let func =
                tgsi::lift(&text, &interface.options).map_err(|source| RunError::TgsiLift {
                    case: case.name.clone(),
                    source: Box::new(source),
                })?;
            let mut launch = Launch::new(case, &inputs, Conventions::TGSI_SOFTPIPE)?;
            for (binding, data) in interface.state_buffers {
                launch.add_uniform(binding, data)?;
            }
            (func, launch)
        }
    };
    // The front ends verify what they return; checking again here keeps a front-end slip from
    // being reported as an interpreter failure.
    verify(&func).map_err(|source| RunError::Verify {
        case: case.name.clone(),
        source,
    })?;
    Ok(Prepared { func, launch })
}
