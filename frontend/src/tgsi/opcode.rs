//! The TGSI opcode table: every mnemonic the parser knows, with its operand counts.
//!
//! The list follows Mesa's `tgsi_info_opcodes.h` (operand counts and which opcodes take a
//! texture target or a branch label), plus the older names the seed reference and Mesa's
//! `graw` tests still use (`KIL`, `KILP`, `SUB`, `FRAC`, `SHR`, ...). Recognising every opcode
//! lets the lifter say "`DADD` is not supported" instead of "unknown opcode".

/// What an opcode's operand list looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// Destination operands.
    pub num_dst: u8,
    /// Source operands (at most).
    pub num_src: u8,
    /// Source operands that may be left out (old `EMIT` without a stream operand).
    pub optional_src: u8,
    /// A texture target follows the operands (and then optional texel offsets).
    pub tex: bool,
    /// Memory qualifiers may follow the operands.
    pub memory: bool,
}

const fn op(num_dst: u8, num_src: u8) -> OpInfo {
    OpInfo {
        num_dst,
        num_src,
        optional_src: 0,
        tex: false,
        memory: false,
    }
}

const fn tex(num_dst: u8, num_src: u8) -> OpInfo {
    OpInfo {
        tex: true,
        ..op(num_dst, num_src)
    }
}

const fn mem(num_dst: u8, num_src: u8) -> OpInfo {
    OpInfo {
        memory: true,
        ..op(num_dst, num_src)
    }
}

const fn opt(num_dst: u8, num_src: u8, optional_src: u8) -> OpInfo {
    OpInfo {
        optional_src,
        ..op(num_dst, num_src)
    }
}

macro_rules! opcodes {
    ($( $variant:ident = $name:literal, $info:expr; )*) => {
        /// A TGSI opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: &'static [Opcode] = &[ $( Opcode::$variant, )* ];

            /// The mnemonic.
            pub fn name(self) -> &'static str {
                match self { $( Opcode::$variant => $name, )* }
            }

            /// Operand counts.
            pub fn info(self) -> OpInfo {
                match self { $( Opcode::$variant => $info, )* }
            }

            /// The opcode with this mnemonic (upper case).
            pub fn from_name(name: &str) -> Option<Opcode> {
                match name { $( $name => Some(Opcode::$variant), )* _ => None }
            }
        }
    };
}

opcodes! {
    // ---- core ISA and the seed's legacy opcodes
    ARL = "ARL", op(1, 1);
    MOV = "MOV", op(1, 1);
    LIT = "LIT", op(1, 1);
    RCP = "RCP", op(1, 1);
    RSQ = "RSQ", op(1, 1);
    EXP = "EXP", op(1, 1);
    LOG = "LOG", op(1, 1);
    MUL = "MUL", op(1, 2);
    ADD = "ADD", op(1, 2);
    DP3 = "DP3", op(1, 2);
    DP4 = "DP4", op(1, 2);
    DST = "DST", op(1, 2);
    MIN = "MIN", op(1, 2);
    MAX = "MAX", op(1, 2);
    SLT = "SLT", op(1, 2);
    SGE = "SGE", op(1, 2);
    MAD = "MAD", op(1, 3);
    SUB = "SUB", op(1, 2);
    LRP = "LRP", op(1, 3);
    FMA = "FMA", op(1, 3);
    SQRT = "SQRT", op(1, 1);
    CND = "CND", op(1, 3);
    DP2A = "DP2A", op(1, 3);
    LDEXP = "LDEXP", op(1, 2);
    FRC = "FRC", op(1, 1);
    FRAC = "FRAC", op(1, 1);
    CLAMP = "CLAMP", op(1, 3);
    FLR = "FLR", op(1, 1);
    ROUND = "ROUND", op(1, 1);
    EX2 = "EX2", op(1, 1);
    LG2 = "LG2", op(1, 1);
    POW = "POW", op(1, 2);
    XPD = "XPD", op(1, 2);
    ABS = "ABS", op(1, 1);
    RCC = "RCC", op(1, 1);
    DPH = "DPH", op(1, 2);
    COS = "COS", op(1, 1);
    DDX = "DDX", op(1, 1);
    DDY = "DDY", op(1, 1);
    DDX_FINE = "DDX_FINE", op(1, 1);
    DDY_FINE = "DDY_FINE", op(1, 1);
    KILP = "KILP", op(0, 0);
    KILL = "KILL", op(0, 0);
    KIL = "KIL", op(0, 1);
    KILL_IF = "KILL_IF", op(0, 1);
    DEMOTE = "DEMOTE", op(0, 0);
    PK2H = "PK2H", op(1, 1);
    PK2US = "PK2US", op(1, 1);
    PK4B = "PK4B", op(1, 1);
    PK4UB = "PK4UB", op(1, 1);
    RFL = "RFL", op(1, 2);
    SEQ = "SEQ", op(1, 2);
    SFL = "SFL", op(1, 2);
    SGT = "SGT", op(1, 2);
    SIN = "SIN", op(1, 1);
    SLE = "SLE", op(1, 2);
    SNE = "SNE", op(1, 2);
    STR = "STR", op(1, 2);
    TEX = "TEX", tex(1, 2);
    TXD = "TXD", tex(1, 4);
    TXP = "TXP", tex(1, 2);
    UP2H = "UP2H", op(1, 1);
    UP2US = "UP2US", op(1, 1);
    UP4B = "UP4B", op(1, 1);
    UP4UB = "UP4UB", op(1, 1);
    X2D = "X2D", op(1, 3);
    ARA = "ARA", op(1, 1);
    ARR = "ARR", op(1, 1);
    BRA = "BRA", op(0, 0);
    CAL = "CAL", op(0, 0);
    RET = "RET", op(0, 0);
    SSG = "SSG", op(1, 1);
    CMP = "CMP", op(1, 3);
    SCS = "SCS", op(1, 1);
    TXB = "TXB", tex(1, 2);
    NRM = "NRM", op(1, 1);
    DIV = "DIV", op(1, 2);
    DP2 = "DP2", op(1, 2);
    TXL = "TXL", tex(1, 2);
    BRK = "BRK", op(0, 0);
    IF = "IF", op(0, 1);
    UIF = "UIF", op(0, 1);
    BGNFOR = "BGNFOR", op(1, 1);
    REP = "REP", op(0, 1);
    ELSE = "ELSE", op(0, 0);
    ENDIF = "ENDIF", op(0, 0);
    ENDFOR = "ENDFOR", op(1, 0);
    ENDREP = "ENDREP", op(0, 0);
    PUSHA = "PUSHA", op(0, 1);
    POPA = "POPA", op(1, 0);
    CEIL = "CEIL", op(1, 1);
    I2F = "I2F", op(1, 1);
    NOT = "NOT", op(1, 1);
    TRUNC = "TRUNC", op(1, 1);
    SHL = "SHL", op(1, 2);
    SHR = "SHR", op(1, 2);
    AND = "AND", op(1, 2);
    OR = "OR", op(1, 2);
    MOD = "MOD", op(1, 2);
    XOR = "XOR", op(1, 2);
    SAD = "SAD", op(1, 3);
    TXF = "TXF", tex(1, 2);
    TXF_LZ = "TXF_LZ", tex(1, 2);
    TXQ = "TXQ", tex(1, 2);
    TXQS = "TXQS", tex(1, 1);
    TEX_LZ = "TEX_LZ", tex(1, 2);
    TEX2 = "TEX2", tex(1, 3);
    TXB2 = "TXB2", tex(1, 3);
    TXL2 = "TXL2", tex(1, 3);
    TG4 = "TG4", tex(1, 3);
    LODQ = "LODQ", tex(1, 2);
    CONT = "CONT", op(0, 0);
    EMIT = "EMIT", opt(0, 1, 1);
    ENDPRIM = "ENDPRIM", opt(0, 1, 1);
    BGNLOOP = "BGNLOOP", op(0, 0);
    BGNSUB = "BGNSUB", op(0, 0);
    ENDLOOP = "ENDLOOP", op(0, 0);
    ENDSUB = "ENDSUB", op(0, 0);
    NOP = "NOP", op(0, 0);
    NRM4 = "NRM4", op(1, 1);
    CALLNZ = "CALLNZ", op(0, 1);
    IFC = "IFC", op(0, 1);
    BREAKC = "BREAKC", op(0, 1);
    END = "END", op(0, 0);
    // ---- integer ISA
    F2I = "F2I", op(1, 1);
    IDIV = "IDIV", op(1, 2);
    IMAX = "IMAX", op(1, 2);
    IMIN = "IMIN", op(1, 2);
    INEG = "INEG", op(1, 1);
    ISGE = "ISGE", op(1, 2);
    ISHR = "ISHR", op(1, 2);
    ISLT = "ISLT", op(1, 2);
    F2U = "F2U", op(1, 1);
    U2F = "U2F", op(1, 1);
    UADD = "UADD", op(1, 2);
    UDIV = "UDIV", op(1, 2);
    UMAD = "UMAD", op(1, 3);
    UMAX = "UMAX", op(1, 2);
    UMIN = "UMIN", op(1, 2);
    UMOD = "UMOD", op(1, 2);
    UMUL = "UMUL", op(1, 2);
    USEQ = "USEQ", op(1, 2);
    USGE = "USGE", op(1, 2);
    USHR = "USHR", op(1, 2);
    USLT = "USLT", op(1, 2);
    USNE = "USNE", op(1, 2);
    UARL = "UARL", op(1, 1);
    UCMP = "UCMP", op(1, 3);
    IABS = "IABS", op(1, 1);
    ISSG = "ISSG", op(1, 1);
    IMUL_HI = "IMUL_HI", op(1, 2);
    UMUL_HI = "UMUL_HI", op(1, 2);
    IBFE = "IBFE", op(1, 3);
    UBFE = "UBFE", op(1, 3);
    BFI = "BFI", op(1, 4);
    BREV = "BREV", op(1, 1);
    POPC = "POPC", op(1, 1);
    LSB = "LSB", op(1, 1);
    IMSB = "IMSB", op(1, 1);
    UMSB = "UMSB", op(1, 1);
    FSEQ = "FSEQ", op(1, 2);
    FSGE = "FSGE", op(1, 2);
    FSLT = "FSLT", op(1, 2);
    FSNE = "FSNE", op(1, 2);
    // ---- switch
    SWITCH = "SWITCH", op(0, 1);
    CASE = "CASE", op(0, 1);
    DEFAULT = "DEFAULT", op(0, 0);
    ENDSWITCH = "ENDSWITCH", op(0, 0);
    // ---- resources
    SAMPLE = "SAMPLE", op(1, 3);
    SAMPLE_I = "SAMPLE_I", op(1, 2);
    SAMPLE_I_MS = "SAMPLE_I_MS", op(1, 3);
    SAMPLE_B = "SAMPLE_B", op(1, 4);
    SAMPLE_C = "SAMPLE_C", op(1, 4);
    SAMPLE_C_LZ = "SAMPLE_C_LZ", op(1, 4);
    SAMPLE_D = "SAMPLE_D", op(1, 5);
    SAMPLE_L = "SAMPLE_L", op(1, 4);
    GATHER4 = "GATHER4", op(1, 3);
    SVIEWINFO = "SVIEWINFO", op(1, 2);
    SAMPLE_POS = "SAMPLE_POS", op(1, 2);
    SAMPLE_INFO = "SAMPLE_INFO", op(1, 2);
    LOAD = "LOAD", mem(1, 2);
    STORE = "STORE", mem(1, 2);
    RESQ = "RESQ", mem(1, 1);
    MEMBAR = "MEMBAR", op(0, 1);
    BARRIER = "BARRIER", op(0, 0);
    MFENCE = "MFENCE", op(1, 0);
    LFENCE = "LFENCE", op(1, 0);
    SFENCE = "SFENCE", op(1, 0);
    ATOMUADD = "ATOMUADD", mem(1, 3);
    ATOMXCHG = "ATOMXCHG", mem(1, 3);
    ATOMCAS = "ATOMCAS", mem(1, 4);
    ATOMAND = "ATOMAND", mem(1, 3);
    ATOMOR = "ATOMOR", mem(1, 3);
    ATOMXOR = "ATOMXOR", mem(1, 3);
    ATOMUMIN = "ATOMUMIN", mem(1, 3);
    ATOMUMAX = "ATOMUMAX", mem(1, 3);
    ATOMIMIN = "ATOMIMIN", mem(1, 3);
    ATOMIMAX = "ATOMIMAX", mem(1, 3);
    ATOMFADD = "ATOMFADD", mem(1, 3);
    ATOMINC_WRAP = "ATOMINC_WRAP", mem(1, 3);
    ATOMDEC_WRAP = "ATOMDEC_WRAP", mem(1, 3);
    IMG2HND = "IMG2HND", op(1, 1);
    SAMP2HND = "SAMP2HND", op(1, 1);
    // ---- interpolation, subgroups, misc
    INTERP_CENTROID = "INTERP_CENTROID", op(1, 1);
    INTERP_SAMPLE = "INTERP_SAMPLE", op(1, 2);
    INTERP_OFFSET = "INTERP_OFFSET", op(1, 2);
    READ_HELPER = "READ_HELPER", op(1, 0);
    CLOCK = "CLOCK", op(1, 0);
    FBFETCH = "FBFETCH", op(1, 1);
    BALLOT = "BALLOT", op(1, 1);
    READ_INVOC = "READ_INVOC", op(1, 2);
    READ_FIRST = "READ_FIRST", op(1, 1);
    VOTE_ANY = "VOTE_ANY", op(1, 1);
    VOTE_ALL = "VOTE_ALL", op(1, 1);
    VOTE_EQ = "VOTE_EQ", op(1, 1);
    // ---- 64-bit ISA (recognised, not lifted: the IR has no f64)
    F2D = "F2D", op(1, 1);
    D2F = "D2F", op(1, 1);
    DABS = "DABS", op(1, 1);
    DNEG = "DNEG", op(1, 1);
    DADD = "DADD", op(1, 2);
    DMUL = "DMUL", op(1, 2);
    DDIV = "DDIV", op(1, 2);
    DMAX = "DMAX", op(1, 2);
    DMIN = "DMIN", op(1, 2);
    DSLT = "DSLT", op(1, 2);
    DSGE = "DSGE", op(1, 2);
    DSEQ = "DSEQ", op(1, 2);
    DSNE = "DSNE", op(1, 2);
    DRCP = "DRCP", op(1, 1);
    DSQRT = "DSQRT", op(1, 1);
    DMAD = "DMAD", op(1, 3);
    DFMA = "DFMA", op(1, 3);
    DFRAC = "DFRAC", op(1, 1);
    DLDEXP = "DLDEXP", op(1, 2);
    D2I = "D2I", op(1, 1);
    I2D = "I2D", op(1, 1);
    D2U = "D2U", op(1, 1);
    U2D = "U2D", op(1, 1);
    DRSQ = "DRSQ", op(1, 1);
    DTRUNC = "DTRUNC", op(1, 1);
    DCEIL = "DCEIL", op(1, 1);
    DFLR = "DFLR", op(1, 1);
    DROUND = "DROUND", op(1, 1);
    DSSG = "DSSG", op(1, 1);
    F2U64 = "F2U64", op(1, 1);
    F2I64 = "F2I64", op(1, 1);
    U2I64 = "U2I64", op(1, 1);
    I2I64 = "I2I64", op(1, 1);
    D2U64 = "D2U64", op(1, 1);
    D2I64 = "D2I64", op(1, 1);
    U642F = "U642F", op(1, 1);
    I642F = "I642F", op(1, 1);
    U642D = "U642D", op(1, 1);
    I642D = "I642D", op(1, 1);
    U64SEQ = "U64SEQ", op(1, 2);
    U64SNE = "U64SNE", op(1, 2);
    I64SLT = "I64SLT", op(1, 2);
    U64SLT = "U64SLT", op(1, 2);
    I64SGE = "I64SGE", op(1, 2);
    U64SGE = "U64SGE", op(1, 2);
    I64MIN = "I64MIN", op(1, 2);
    U64MIN = "U64MIN", op(1, 2);
    I64MAX = "I64MAX", op(1, 2);
    U64MAX = "U64MAX", op(1, 2);
    I64ABS = "I64ABS", op(1, 1);
    I64SSG = "I64SSG", op(1, 1);
    I64NEG = "I64NEG", op(1, 1);
    U64ADD = "U64ADD", op(1, 2);
    U64MUL = "U64MUL", op(1, 2);
    U64SHL = "U64SHL", op(1, 2);
    I64SHR = "I64SHR", op(1, 2);
    U64SHR = "U64SHR", op(1, 2);
    I64DIV = "I64DIV", op(1, 2);
    U64DIV = "U64DIV", op(1, 2);
    I64MOD = "I64MOD", op(1, 2);
    U64MOD = "U64MOD", op(1, 2);
}

impl Opcode {
    /// True for opcodes that may carry a `:label` (control flow).
    pub fn takes_label(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            IF | UIF
                | ELSE
                | ENDIF
                | BGNLOOP
                | ENDLOOP
                | CAL
                | BRA
                | CALLNZ
                | IFC
                | BGNSUB
                | ENDSUB
                | BGNFOR
                | ENDFOR
                | REP
                | ENDREP
                | SWITCH
                | CASE
                | DEFAULT
                | ENDSWITCH
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &op in Opcode::ALL {
            assert!(seen.insert(op.name()), "duplicate {}", op.name());
            assert_eq!(Opcode::from_name(op.name()), Some(op));
        }
    }

    #[test]
    fn operand_counts_follow_mesa() {
        assert_eq!(Opcode::TXD.info().num_src, 4);
        assert!(Opcode::TXD.info().tex);
        assert_eq!(Opcode::BFI.info().num_src, 4);
        assert_eq!(Opcode::STORE.info().num_dst, 1);
        assert!(Opcode::LOAD.info().memory);
        assert_eq!(Opcode::KILL_IF.info().num_src, 1);
    }
}
