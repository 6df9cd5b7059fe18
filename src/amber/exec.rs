//! Running parsed commands: buffers, pipelines compiled by agxc, dispatches and draws in the
//! G13 simulator, then the `EXPECT` checks of [`super::expect`].

use std::collections::HashMap;

use crate::sim::{self, SimOptions};
use agxc_backend_agx::Binary;
use agxc_egraph::interp::{FragmentGrid, Resources};
use agxc_egraph::ir::Binding;

use super::expect;
use super::format::{Comp, ElemType, Value};
use super::parse::{BindKind, BufferDef, Command, Init, PipelineDef, ShaderDef, StageKind};
use super::{shader, Outcome};
use crate::{compile, OptLevel, Options};

/// A buffer's type and bytes; colour attachments also know their size in pixels.
#[derive(Clone, Debug)]
pub struct Buffer {
    /// Element type and layout.
    pub ty: ElemType,
    /// Contents.
    pub data: Vec<u8>,
    /// Width and height, once bound as a colour attachment.
    pub image: Option<[u32; 2]>,
}

struct Pipeline {
    def: PipelineDef,
    clear: [f64; 4],
    /// Compiled shaders, on first use.
    binaries: Option<Vec<(StageKind, Option<Binary>)>>,
}

/// The state of a script being run.
pub struct Runner {
    opt: OptLevel,
    shaders: HashMap<String, ShaderDef>,
    /// Buffers by name.
    pub buffers: HashMap<String, Buffer>,
    pipelines: HashMap<String, Pipeline>,
}

/// A command that cannot run: its line and why.
pub type Fault = (usize, String);

fn fault<T>(line: usize, m: impl Into<String>) -> Result<T, Fault> {
    Err((line, m.into()))
}

/// A marker no shader output is expected to produce: pixels still holding it were not
/// written (discarded, or outside the primitive).
const UNWRITTEN: u32 = 0x7fc0_a3b1;

impl Runner {
    /// A runner compiling at `opt`.
    pub fn new(opt: OptLevel) -> Runner {
        Runner {
            opt,
            shaders: HashMap::new(),
            buffers: HashMap::new(),
            pipelines: HashMap::new(),
        }
    }

    /// Runs commands in order; stops at the first failed expectation or fault.
    pub fn run(&mut self, cmds: &[Command]) -> Result<Option<Outcome>, Fault> {
        for cmd in cmds {
            match cmd {
                Command::Shader(s) => {
                    if self.shaders.insert(s.name.clone(), s.clone()).is_some() {
                        return fault(s.line, format!("shader `{}` defined twice", s.name));
                    }
                }
                Command::Buffer(b) => {
                    let buf = make_buffer(b)?;
                    if self.buffers.insert(b.name.clone(), buf).is_some() {
                        return fault(b.line, format!("buffer `{}` defined twice", b.name));
                    }
                }
                Command::Pipeline(p) => self.pipeline(p)?,
                Command::ClearColor(name, c, line) => self.pipe(name, *line)?.clear = *c,
                Command::Clear(name, line) => self.clear(name, *line)?,
                Command::RunCompute(name, groups, line) => self.compute(name, *groups, *line)?,
                Command::RunRect(name, pos, size, line) => self.rect(name, *pos, *size, *line)?,
                Command::Repeat(n, body) => {
                    for _ in 0..*n {
                        if let Some(out) = self.run(body)? {
                            return Ok(Some(out));
                        }
                    }
                }
                Command::Expect(e) => {
                    if let Err(reason) = expect::check(e, &self.buffers) {
                        return Ok(Some(Outcome::Fail {
                            line: e.line,
                            expect: e.text.clone(),
                            reason,
                        }));
                    }
                }
            }
        }
        Ok(None)
    }

    fn pipe(&mut self, name: &str, line: usize) -> Result<&mut Pipeline, Fault> {
        match self.pipelines.get_mut(name) {
            Some(p) => Ok(p),
            None => fault(line, format!("no pipeline `{name}`")),
        }
    }

    fn pipeline(&mut self, p: &PipelineDef) -> Result<(), Fault> {
        for (name, _, line) in &p.shaders {
            let Some(s) = self.shaders.get(name) else {
                return fault(*line, format!("no shader `{name}`"));
            };
            if p.compute != (s.stage == StageKind::Compute) {
                return fault(
                    *line,
                    format!("shader `{name}` does not fit this pipeline type"),
                );
            }
        }
        for (name, kind, line) in &p.binds {
            let Some(buf) = self.buffers.get_mut(name) else {
                return fault(*line, format!("no buffer `{name}`"));
            };
            if let BindKind::Color(_) = kind {
                if p.compute {
                    return fault(*line, "a compute pipeline has no colour attachments");
                }
                color_attachment(buf, p.framebuffer).map_err(|m| (*line, m))?;
            }
        }
        let pipe = Pipeline {
            def: p.clone(),
            clear: [0.0; 4],
            binaries: None,
        };
        if self.pipelines.insert(p.name.clone(), pipe).is_some() {
            return fault(p.line, format!("pipeline `{}` defined twice", p.name));
        }
        Ok(())
    }

    fn clear(&mut self, name: &str, line: usize) -> Result<(), Fault> {
        let pipe = self.pipe(name, line)?;
        if pipe.def.compute {
            return fault(line, "CLEAR needs a graphics pipeline");
        }
        let rgba = pipe.clear.map(|c| (c / 255.0) as f32);
        let targets: Vec<String> = pipe
            .def
            .binds
            .iter()
            .filter(|(_, k, _)| matches!(k, BindKind::Color(_)))
            .map(|(n, _, _)| n.clone())
            .collect();
        for name in targets {
            let buf = self
                .buffers
                .get_mut(&name)
                .ok_or((line, "buffer vanished".to_string()))?;
            let texel = encode_texel(&buf.ty, rgba).map_err(|m| (line, m))?;
            for px in buf.data.chunks_exact_mut(texel.len()) {
                px.copy_from_slice(&texel);
            }
        }
        Ok(())
    }

    /// The pipeline's binaries, compiled on first use.
    fn binaries(
        &mut self,
        name: &str,
        line: usize,
    ) -> Result<Vec<(StageKind, Option<Binary>)>, Fault> {
        let opt = self.opt;
        let pipe = self
            .pipelines
            .get(name)
            .ok_or((line, format!("no pipeline `{name}`")))?;
        if let Some(b) = &pipe.binaries {
            return Ok(b.clone());
        }
        let mut out = Vec::new();
        for (shader_name, entry, attach_line) in &pipe.def.shaders {
            let s = &self.shaders[shader_name];
            let spv = shader::spirv(&s.source, s.stage, s.target_env.as_deref())
                .map_err(|m| (s.line, format!("shader `{shader_name}`: {m}")))?;
            let bin = match spv {
                None => None,
                Some(spv) => {
                    let opts = Options {
                        entry: Some(entry.clone()),
                        opt_level: opt,
                        ..Options::default()
                    };
                    let compiled = compile(&spv, &opts).map_err(|e| {
                        (
                            *attach_line,
                            format!("compiling shader `{shader_name}`: {e}"),
                        )
                    })?;
                    Some(compiled.binary)
                }
            };
            out.push((s.stage, bin));
        }
        self.pipelines
            .get_mut(name)
            .expect("looked up above")
            .binaries = Some(out.clone());
        Ok(out)
    }

    /// The resources of a pipeline's bindings.
    fn resources(&self, def: &PipelineDef) -> Result<Resources, Fault> {
        let mut res = Resources::new();
        let mut storage: HashMap<&str, usize> = HashMap::new();
        for (name, kind, line) in &def.binds {
            let data = self.buffers[name].data.clone();
            match *kind {
                BindKind::Storage(s, b) => {
                    if let Some(first) = storage.insert(name, *line) {
                        return fault(
                            *line,
                            format!("buffer `{name}` is already bound as storage on line {first}: aliased bindings are not supported"),
                        );
                    }
                    res.bind_storage(Binding::new(s, b), data);
                }
                BindKind::Uniform(s, b) => {
                    res.bind_uniform(Binding::new(s, b), data);
                }
                BindKind::PushConstant => {
                    res.set_push_constants(data);
                }
                BindKind::Color(_) => {}
            }
        }
        Ok(res)
    }

    /// Copies storage buffers back after a run.
    fn read_back(&mut self, def: &PipelineDef, res: &Resources) {
        for (name, kind, _) in &def.binds {
            if let BindKind::Storage(s, b) = *kind {
                if let (Some(data), Some(buf)) = (
                    res.buffer_data(Binding::new(s, b)),
                    self.buffers.get_mut(name),
                ) {
                    buf.data = data.to_vec();
                }
            }
        }
    }

    fn compute(&mut self, name: &str, groups: [u32; 3], line: usize) -> Result<(), Fault> {
        let def = self.pipe(name, line)?.def.clone();
        if !def.compute {
            return fault(
                line,
                "RUN x y z needs a compute pipeline (use DRAW_RECT for graphics)",
            );
        }
        let bins = self.binaries(name, line)?;
        let Some((_, Some(bin))) = bins.first() else {
            return fault(line, "the pipeline has no compute shader attached");
        };
        let mut res = self.resources(&def)?;
        sim::run_compute_with(bin, &mut res, groups, &SimOptions::default())
            .map_err(|e| (line, format!("simulation failed: {e}")))?;
        self.read_back(&def, &res);
        Ok(())
    }

    fn rect(
        &mut self,
        name: &str,
        pos: [f64; 2],
        size: [f64; 2],
        line: usize,
    ) -> Result<(), Fault> {
        let def = self.pipe(name, line)?.def.clone();
        if def.compute {
            return fault(line, "DRAW_RECT needs a graphics pipeline");
        }
        let bins = self.binaries(name, line)?;
        let mut fragment = None;
        for (stage, bin) in &bins {
            match (stage, bin) {
                (StageKind::Vertex, None) => {}
                (StageKind::Vertex, Some(_)) => {
                    return fault(
                        line,
                        "DRAW_RECT runs with the PASSTHROUGH vertex shader only",
                    )
                }
                (StageKind::Fragment, Some(b)) => fragment = Some(b),
                _ => return fault(line, "unexpected shader in a graphics pipeline"),
            }
        }
        let Some(frag) = fragment else {
            return fault(line, "the pipeline has no fragment shader attached");
        };
        let [w, h] = def.framebuffer;
        let mut grid = FragmentGrid::new(w, h);
        grid.clear = [f32::from_bits(UNWRITTEN); 4];
        let mut res = self.resources(&def)?;
        let result = sim::run_fragment_with(frag, &mut res, &grid, &SimOptions::default())
            .map_err(|e| (line, format!("simulation failed: {e}")))?;
        self.read_back(&def, &res);
        // Pixels whose centres lie inside the rectangle take the shader's colour.
        let inside = |x: u32, y: u32| {
            let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            cx >= pos[0] && cx < pos[0] + size[0] && cy >= pos[1] && cy < pos[1] + size[1]
        };
        for (name, kind, _) in &def.binds {
            let BindKind::Color(loc) = *kind else {
                continue;
            };
            let Some(target) = result.targets.get(&loc) else {
                continue;
            };
            let buf = self
                .buffers
                .get_mut(name)
                .ok_or((line, "buffer vanished".to_string()))?;
            let stride = buf.ty.stride() as usize;
            for (i, px) in target.iter().enumerate() {
                let (x, y) = (i as u32 % w, i as u32 / w);
                if !inside(x, y) || px.iter().all(|c| c.to_bits() == UNWRITTEN) {
                    continue;
                }
                let texel = encode_texel(&buf.ty, *px).map_err(|m| (line, m))?;
                buf.data[i * stride..(i + 1) * stride].copy_from_slice(&texel);
            }
        }
        Ok(())
    }
}

/// Makes a buffer a `w`x`h` colour attachment (allocating it if empty).
fn color_attachment(buf: &mut Buffer, [w, h]: [u32; 2]) -> Result<(), String> {
    if buf.ty.channels.is_none() {
        return Err("a colour attachment needs a FORMAT buffer".into());
    }
    if w == 0 || h == 0 {
        return Err(format!("a {w}x{h} framebuffer has no pixels"));
    }
    let bytes = u64::from(w) * u64::from(h) * buf.ty.stride();
    if bytes > 1 << 30 {
        return Err(format!("a {w}x{h} framebuffer is over 1 GiB"));
    }
    if buf.data.is_empty() {
        buf.data = vec![0; bytes as usize];
    } else if buf.data.len() as u64 != bytes {
        return Err(format!(
            "the buffer holds {} bytes, a {w}x{h} framebuffer needs {bytes}",
            buf.data.len()
        ));
    }
    buf.image = Some([w, h]);
    Ok(())
}

/// An RGBA colour in a format's memory order and encoding.
fn encode_texel(ty: &ElemType, rgba: [f32; 4]) -> Result<Vec<u8>, String> {
    let letters = ty.channels.as_deref().unwrap_or("RGBA");
    let mut out = Vec::new();
    for c in letters.chars() {
        let v = rgba["RGBA".find(c).unwrap_or(0)];
        match ty.comp {
            // Round to nearest (Vulkan's float -> UNORM conversion); NaN writes 0.
            Comp::Unorm8 => out.push((v.clamp(0.0, 1.0) * 255.0).round() as u8),
            Comp::F32 => out.extend(v.to_le_bytes()),
            Comp::F16 => out.extend(half::f16::from_f32(v).to_le_bytes()),
            Comp::F64 => out.extend(f64::from(v).to_le_bytes()),
            _ => {
                return Err(format!(
                    "colour attachments of {:?} channels are not supported",
                    ty.comp
                ))
            }
        }
    }
    Ok(out)
}

/// A buffer from its definition.
fn make_buffer(b: &BufferDef) -> Result<Buffer, Fault> {
    let ty = b.ty.clone();
    let comps = ty.comps();
    let write = |data: &mut Vec<u8>, k: u64, text: &str, line: usize| -> Result<(), Fault> {
        let (elem, comp) = (k / comps, k % comps);
        let off = ty.offsets(elem).nth(comp as usize).expect("comp < comps") as usize;
        let mut bytes = Vec::new();
        ty.comp.encode(text, &mut bytes).map_err(|m| (line, m))?;
        data[off..off + bytes.len()].copy_from_slice(&bytes);
        Ok(())
    };
    let alloc = |elems: u64| -> Result<Vec<u8>, Fault> {
        let bytes = elems.saturating_mul(ty.stride());
        if bytes > 1 << 30 {
            return fault(b.line, "the buffer is over 1 GiB");
        }
        Ok(vec![0; bytes as usize])
    };
    let data = match &b.init {
        Init::None => Vec::new(),
        Init::Data(values) => {
            let mut data = alloc((values.len() as u64).div_ceil(comps))?;
            for (k, (text, line)) in values.iter().enumerate() {
                write(&mut data, k as u64, text, *line)?;
            }
            data
        }
        Init::Fill(n, v) => {
            let mut data = alloc(*n)?;
            for k in 0..n * comps {
                write(&mut data, k, v, b.line)?;
            }
            data
        }
        Init::Series(n, from, inc) => {
            let mut data = alloc(*n)?;
            let start = ty.comp.expected(from).map_err(|m| (b.line, m))?;
            let step = ty.comp.expected(inc).map_err(|m| (b.line, m))?;
            for k in 0..n * comps {
                let text = match (start, step) {
                    (Value::Int(a), Value::Int(d)) => (a + i128::from(k) * d).to_string(),
                    _ => (start.as_f64() + k as f64 * step.as_f64()).to_string(),
                };
                write(&mut data, k, &text, b.line)?;
            }
            data
        }
    };
    Ok(Buffer {
        ty,
        data,
        image: None,
    })
}
