//! A compute-shader scaffold built with `rspirv::dr::Builder`: `out[gid] = f(in[gid])` with the
//! body supplied by each test, assembled to words and run in the reference interpreter.

use crate::spirv::{lift, LiftOptions};
use agxc_egraph::interp::{bytes_u32, run_compute, u32_bytes, Limits, Resources};
use agxc_egraph::ir::{Binding, Function};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel};
use spirv::{FunctionControl, MemoryModel, StorageClass, Word};

/// Invocations per workgroup of every scaffold kernel.
pub const LOCAL: u32 = 8;

pub struct Kernel {
    pub b: Builder,
    pub uint: Word,
    pub int: Word,
    pub float: Word,
    pub boolean: Word,
    /// `gl_GlobalInvocationID.x`, loaded in the first block.
    pub gid: Word,
    pub main: Word,
    /// The label of `main`'s first block.
    pub entry: Word,
    out: Word,
    inp: Word,
    ptr_elem: Word,
    interface: Vec<Word>,
}

impl Kernel {
    /// Starts `main`; the current block is its first one, with `gid` loaded.
    pub fn new() -> Kernel {
        let mut b = Builder::new();
        b.set_version(1, 3);
        b.capability(Capability::Shader);
        b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        let void = b.type_void();
        let uint = b.type_int(32, 0);
        let int = b.type_int(32, 1);
        let float = b.type_float(32, None);
        let boolean = b.type_bool();
        let uvec3 = b.type_vector(uint, 3);
        let arr = b.type_runtime_array(uint);
        b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
        let block = b.type_struct([arr]);
        b.decorate(block, Decoration::Block, []);
        b.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        let ptr_block = b.type_pointer(None, StorageClass::StorageBuffer, block);
        let ptr_elem = b.type_pointer(None, StorageClass::StorageBuffer, uint);
        let out = b.variable(ptr_block, None, StorageClass::StorageBuffer, None);
        let inp = b.variable(ptr_block, None, StorageClass::StorageBuffer, None);
        for (var, binding) in [(out, 0), (inp, 1)] {
            b.decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
            b.decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        }
        let ptr_in = b.type_pointer(None, StorageClass::Input, uvec3);
        let gid_var = b.variable(ptr_in, None, StorageClass::Input, None);
        b.decorate(
            gid_var,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
        );
        let fn_ty = b.type_function(void, []);
        let main = b
            .begin_function(void, None, FunctionControl::NONE, fn_ty)
            .expect("function");
        b.name(main, "main");
        let entry = b.begin_block(None).expect("block");
        let v = b.load(uvec3, None, gid_var, None, []).expect("load");
        let gid = b.composite_extract(uint, None, v, [0]).expect("extract");
        Kernel {
            b,
            uint,
            int,
            float,
            boolean,
            gid,
            main,
            entry,
            out,
            inp,
            ptr_elem,
            interface: vec![gid_var, out, inp],
        }
    }

    pub fn u32(&mut self, v: u32) -> Word {
        let uint = self.uint;
        self.b.constant_bit32(uint, v)
    }

    /// A pointer to `in[index]`.
    pub fn in_ptr(&mut self, index: Word) -> Word {
        let zero = self.u32(0);
        self.b
            .access_chain(self.ptr_elem, None, self.inp, [zero, index])
            .expect("chain")
    }

    /// `in[index]` as a uint.
    pub fn load_in(&mut self, index: Word) -> Word {
        let zero = self.u32(0);
        let p = self
            .b
            .access_chain(self.ptr_elem, None, self.inp, [zero, index])
            .expect("chain");
        self.b.load(self.uint, None, p, None, []).expect("load")
    }

    /// `out[index] = value` (a uint).
    pub fn store_out(&mut self, index: Word, value: Word) {
        let zero = self.u32(0);
        let p = self
            .b
            .access_chain(self.ptr_elem, None, self.out, [zero, index])
            .expect("chain");
        self.b.store(p, value, None, []).expect("store");
    }

    /// Ends `main` (with `OpReturn` unless the current block is already ended) and assembles.
    pub fn finish(self) -> Vec<u32> {
        self.finish_with(|_| {})
    }

    /// As [`Kernel::finish`], letting `more` add functions after `main`.
    pub fn finish_with(mut self, more: impl FnOnce(&mut Builder)) -> Vec<u32> {
        if self.b.selected_block().is_some() {
            self.b.ret().expect("return");
        }
        self.b.end_function().expect("end");
        more(&mut self.b);
        self.b.entry_point(
            ExecutionModel::GLCompute,
            self.main,
            "main",
            &self.interface,
        );
        self.b
            .execution_mode(self.main, ExecutionMode::LocalSize, [LOCAL, 1, 1]);
        self.b.module().assemble()
    }
}

/// Lifts with the given options.
pub fn lift_with(words: &[u32], options: &LiftOptions) -> Function {
    lift(words, options).unwrap_or_else(|e| panic!("lift: {e}"))
}

/// Runs a scaffold kernel on `input` (one invocation per element, a multiple of [`LOCAL`]) and
/// returns `out`.
pub fn run(words: &[u32], input: &[u32]) -> Vec<u32> {
    let func = lift_with(words, &LiftOptions::default());
    run_lifted(&func, input)
}

pub fn run_lifted(func: &Function, input: &[u32]) -> Vec<u32> {
    assert_eq!(input.len() % LOCAL as usize, 0);
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), vec![0; input.len() * 4]);
    res.bind_storage(Binding::new(0, 1), u32_bytes(input));
    let groups = input.len() as u32 / LOCAL;
    run_compute(func, &mut res, [groups, 1, 1], &Limits::default())
        .unwrap_or_else(|e| panic!("interp: {e}"));
    bytes_u32(res.buffer_data(Binding::new(0, 0)).expect("bound"))
}
