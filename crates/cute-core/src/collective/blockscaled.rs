//! What SM100's and SM120's block-scaled builders share (`sm1xx_common.inl`'s
//! `detail::blockscaled`): the type checks, the instruction the types or the tag select,
//! the alignment and unpacked-TMA rules, the scale factors' blocks and the stage count.

use super::common::{
    refuse, sm1xx_is_aligned, BlockScaledInstr, BlockScaledTag, MainloopConfig, ScaledElem, Stages,
};
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout};
use crate::smem_atom::AtomMajor;

/// `round_up(sizeof(PipelineTmaUmmaAsync<1>::SharedStorage), 128)`: the block-scaled
/// builder counts a stage's barriers as 128 bytes.
pub(super) const STAGE_PIPELINE_BYTES: i64 = 128;
/// A stage's full and empty barriers as the `SharedStorage` holds them.
const STAGE_BARRIER_BYTES: i64 = 16;
/// `Sm1xxBlockScaledBasicChunk`: a block of 128 rows (`Blk_MN`) by 4 scale factors
/// (`Blk_SF`), 512 of them, so a TMEM word holds one row's four.
pub(super) const BLK_MN: i64 = 128;
pub(super) const BLK_SF: i64 = 4;

/// `Sm1xxBlockScaledBasicChunk<VS, major>::SfAtom`: 128 rows, as `(32,4):(16,4)`, by 4
/// factors of `VS` elements each (stride 0 across a factor's elements), K-major or
/// MN-major.
///
/// ```
/// use cute_core::collective::sf_chunk_atom;
/// use cute_core::smem_atom::AtomMajor;
/// let a = sf_chunk_atom(16, AtomMajor::K).unwrap();
/// assert_eq!(a.to_string(), "((32,4),(16,4)):((16,4),(0,1))");
/// ```
pub fn sf_chunk_atom(vs: i64, major: AtomMajor) -> Result<Layout> {
    if vs <= 0 {
        return Err(crate::err!(
            "a scale factor's vector size is positive, got {vs}"
        ));
    }
    let rows = (IntTuple::ints(&[32, 4]), IntTuple::ints(&[16, 4]));
    let sf = (IntTuple::ints(&[vs, BLK_SF]), IntTuple::ints(&[0, 1]));
    let (a, b) = match major {
        AtomMajor::K => (rows, sf),
        AtomMajor::MN => (sf, rows),
    };
    Layout::new(
        IntTuple::Tuple(vec![a.0, b.0]),
        IntTuple::Tuple(vec![a.1, b.1]),
    )
}

/// `Sm1xxBlockScaledConfig<VS>::LayoutSF` (the collective's `LayoutSFA`/`LayoutSFB`) and
/// `Sm1xxBlockScaledOutputConfig<VS, major>::LayoutSF`: the chunk atom blocked over run-time
/// `(M or N blocks, K blocks, L)`, value-initialized to 0 as the type's default is;
/// `tile_atom_to_shape_SF*` fills the extents in.
///
/// ```
/// use cute_core::collective::sf_tensor_layout;
/// use cute_core::smem_atom::AtomMajor;
/// let l = sf_tensor_layout(16, AtomMajor::K).unwrap();
/// assert_eq!(
///     l.to_string(),
///     "(((32,4),0),((16,4),0),(1,0)):(((16,4),0),((0,1),512),(0,0))"
/// );
/// // The zeros are run-time extents (`int32_t(0)`), the atom's are static.
/// assert!(!l.shape().is_static());
/// ```
pub fn sf_tensor_layout(vs: i64, major: AtomMajor) -> Result<Layout> {
    let d = IntTuple::Dyn(0);
    let blocks = Layout::new(
        IntTuple::Tuple(vec![d.clone(), d.clone(), d.clone()]),
        IntTuple::Tuple(match major {
            AtomMajor::K => vec![d.clone(), IntTuple::Int(1), d],
            AtomMajor::MN => vec![IntTuple::Int(1), d.clone(), d],
        }),
    )?;
    layout::blocked_product(&sf_chunk_atom(vs, major)?, &blocks)
}

/// The scaled types are the operands' (the language passes both).
pub(super) fn check_data(cfg: &MainloopConfig, scaled: [ScaledElem; 2]) -> Result<()> {
    if scaled.map(ScaledElem::data) == [cfg.a.0, cfg.b.0] {
        return Ok(());
    }
    Err(crate::err!(
        "the block-scaled types {} and {} do not match ElementA {} and ElementB {}",
        scaled[0],
        scaled[1],
        cfg.a.0,
        cfg.b.0
    ))
}

/// The instruction kinds of the tags `is_auto_instr_selection_policy` accepts.
fn auto_instr(tag: BlockScaledTag) -> bool {
    tag.instr.is_none()
}

/// `check_input_datatypes`, in CUTLASS's words: the scale factors agree, and the data
/// types, the scale type, the vector size and the tag fit one instruction.
pub(super) fn check_types(
    cfg: &MainloopConfig,
    s: [ScaledElem; 2],
    tag: BlockScaledTag,
) -> Result<()> {
    let (a, b) = (s[0].data(), s[1].data());
    let types = format!("{} x {}", s[0], s[1]);
    if s[0].sf() != s[1].sf() {
        return Err(refuse(
            "Scale factor types for A and B should be the same.",
            types,
        ));
    }
    let (sf, vs) = (s[0].sf(), s[0].vs(tag));
    if vs != s[1].vs(tag) {
        return Err(refuse(
            "Scale factor vector size for A and B should be the same.",
            types,
        ));
    }
    if !matches!(sf, Elem::UE8M0 | Elem::UE4M3) {
        return Err(refuse(
            "Incorrect scale factor type",
            format!("{types}: the scale factors are float_ue8m0_t or float_ue4m3_t, not {sf}"),
        ));
    }
    let narrow = |e: Elem| matches!(e.bits(), 4 | 6 | 8);
    if !(narrow(a) && narrow(b)) {
        return Err(refuse(
            "Incorrect input types",
            format!("{types}: a block-scaled UMMA reads 4-, 6- or 8-bit floats"),
        ));
    }
    let f4 = a.bits() == 4 && b.bits() == 4;
    if !f4 {
        let (ok, msg, why) = if sf != Elem::UE8M0 {
            (
                false,
                "MX_F4F6F8 only supports ue8m0 SF type",
                format!("{types}: MXF8F6F4 scales by float_ue8m0_t"),
            )
        } else if !(a.is_f8f6f4() && b.is_f8f6f4()) {
            (false, "Incorrect types for A and B for MX_F4F6F8", format!("{types}: MXF8F6F4 reads float_e2m1_t, float_e2m3_t, float_e3m2_t, float_e4m3_t or float_e5m2_t"))
        } else if vs != 32 {
            (
                false,
                "Incorrect SfVectorSize for MX_F4F6F8 is deduced.",
                format!("{types}: MXF8F6F4 scales 32 elements a factor, not {vs}"),
            )
        } else if !(tag.instr == Some(BlockScaledInstr::Mxf8f6f4) || auto_instr(tag)) {
            (
                false,
                "Incorrect Kernel Schedule Policy for Mx_F4F6F8 type inputs.",
                format!("{types} take MXF8F6F4, but {} names MXF4", cfg.schedule),
            )
        } else {
            (true, "", String::new())
        };
        return if ok { Ok(()) } else { Err(refuse(msg, why)) };
    }
    if a != Elem::E2M1 || b != Elem::E2M1 {
        return Err(refuse(
            "Incorrect types for A and B for MXNV_F4",
            format!("{types}: 4-bit A and B are float_e2m1_t"),
        ));
    }
    let k_major = cfg.a.1.major(false) == AtomMajor::K && cfg.b.1.major(true) == AtomMajor::K;
    // A tag that names the instruction also names the vector size.
    let vs_matches = || -> Result<()> {
        if tag.vs == vs {
            return Ok(());
        }
        Err(refuse(
            "Kernel Schedule policy doesn't match the scale factor vector size.",
            format!(
                "{types} scale {vs} elements a factor, {} {}",
                cfg.schedule, tag.vs
            ),
        ))
    };
    match tag.instr {
        Some(BlockScaledInstr::Mxf8f6f4) => {
            if sf != Elem::UE8M0 {
                return Err(refuse(
                    "MX_F4F6F8 only supports ue8m0 SF type",
                    format!("{types} under {}", cfg.schedule),
                ));
            }
            vs_matches()?;
        }
        Some(BlockScaledInstr::Mxf4Nvf4) => {
            if !k_major {
                return Err(refuse(
                    "MX/NV_F4 only supports RowMajor A, and ColMajorB",
                    format!("{} reads K-major A and B", cfg.schedule),
                ));
            }
            vs_matches()?;
        }
        None if (vs == 16 || sf == Elem::UE4M3) && !k_major => {
            return Err(refuse(
                "NV_F4 only supports RowMajor A, and ColMajorB",
                format!("{types}: only the MXF4 instruction takes 16-element or float_ue4m3_t scales, and it reads K-major A and B"),
            ));
        }
        None => {}
    }
    Ok(())
}

/// `select_instr`: the tag's instruction, else MXF4 for two K-major 4-bit operands and
/// MXF8F6F4 for the rest.
pub(super) fn select_instr(
    cfg: &MainloopConfig,
    s: [ScaledElem; 2],
    tag: BlockScaledTag,
) -> Result<BlockScaledInstr> {
    if let Some(i) = tag.instr {
        return Ok(i);
    }
    let (a, b) = (s[0].data(), s[1].data());
    let k_major = cfg.a.1.major(false) == AtomMajor::K && cfg.b.1.major(true) == AtomMajor::K;
    if a.bits() == 4 && b.bits() == 4 && k_major {
        return Ok(BlockScaledInstr::Mxf4Nvf4);
    }
    if a.bits() == 4 && b.bits() == 4 && (s[0].vs(tag) != 32 || s[0].sf() != Elem::UE8M0) {
        return Err(refuse(
            "Only MXF4 support with non-TN and MMA.MXF8F6F4.",
            format!(
                "{} x {} not K-major go to MXF8F6F4, which scales 32 elements a float_ue8m0_t",
                s[0], s[1]
            ),
        ));
    }
    Ok(BlockScaledInstr::Mxf8f6f4)
}

/// `sm1xx_gemm_check_for_f8f6f4_mix8bit_requirement`: a 4- or 6-bit operand MXF8F6F4 reads
/// unpacked from shared memory needs 128-element TMA boxes along its contiguous mode.
pub(super) fn check_unpacked(
    cfg: &MainloopConfig,
    instr: BlockScaledInstr,
    two_sm: bool,
) -> Result<()> {
    if instr != BlockScaledInstr::Mxf8f6f4 {
        return Ok(());
    }
    let [m, n, k] = cfg.tile;
    let unpacked = |e: Elem| e.bits() < 8;
    let a_ok = !unpacked(cfg.a.0)
        || if cfg.a.1.major(false) == AtomMajor::K {
            k % 128 == 0
        } else {
            m % 128 == 0
        };
    let b_n = if two_sm { 256 } else { 128 };
    let b_ok = !unpacked(cfg.b.0)
        || if cfg.b.1.major(true) == AtomMajor::MN {
            n % b_n == 0
        } else {
            k % 128 == 0
        };
    if a_ok && b_ok {
        return Ok(());
    }
    Err(refuse(
        "TileSize and MNK Major does not met with MMA Mix 8-bit TMA load requirement",
        format!(
            "MXF8F6F4 reads {} unpacked to a byte an element: its contiguous tile mode is a multiple of 128 (B N-major on a CTA pair: 256)",
            if a_ok { cfg.b.0 } else { cfg.a.0 }
        ),
    ))
}

/// `sm1xx_blockscaled_gemm_is_aligned`: 128 bits, or 512 / 768 bits for 4- / 6-bit operands
/// under an `Mxf8f6f4` tag; else no builder matches.
pub(super) fn check_aligned(cfg: &MainloopConfig, tag: BlockScaledTag) -> Result<()> {
    let subbyte =
        (cfg.a.0.bits() < 8 || cfg.b.0.bits() < 8) && tag.instr == Some(BlockScaledInstr::Mxf8f6f4);
    if sm1xx_is_aligned(cfg, subbyte)? {
        return Ok(());
    }
    Err(refuse(
        "Could not build a collective for given parameters.",
        format!(
            "AlignmentA = {} of {} and AlignmentB = {} of {} are not TMA-aligned (128 bits{}), so no {} block-scaled builder takes them",
            cfg.a.2,
            cfg.a.0,
            cfg.b.2,
            cfg.b.0,
            if subbyte { ", 512 / 768 bits for 4- / 6-bit operands" } else { "" },
            cfg.arch.name()
        ),
    ))
}

/// The stage mode appended: `(atom..., Stages):(strides..., size(filter_zeros(atom)))`.
pub(super) fn sf_staged(atom: &Layout, stages: i64) -> Result<(Layout, i64)> {
    let bytes = layout::filter_zeros(atom).size()?;
    let mode = Layout::new(IntTuple::Int(stages), IntTuple::Int(bytes))?;
    Ok((layout::append(atom, atom.rank() + 1, Some(&mode))?, bytes))
}

/// The stage count: as given, or `capacity` (the arch's shared memory less what its kernel
/// keeps, which `kept` describes) less the user's carveout, over a stage's A, B, 128 bytes of
/// barriers, SFA and SFB (`sm100_compute_stage_count_or_override_blockscaled`). The callers
/// refuse a count their collective cannot run.
pub(super) fn stage_count(
    cfg: &MainloopConfig,
    capacity: i64,
    kept: &str,
    tile_bytes: [i64; 2],
    sf_bytes: [i64; 2],
    notes: &mut Vec<String>,
) -> Result<i64> {
    let stage = [
        tile_bytes[0],
        tile_bytes[1],
        STAGE_PIPELINE_BYTES,
        sf_bytes[0],
        sf_bytes[1],
    ]
    .into_iter()
    .try_fold(0i64, arith::add)?;
    let user = match cfg.stages {
        Stages::Count(s) => {
            notes.push(format!("{}: {s} stages as given", cfg.stages));
            return Ok(s);
        }
        Stages::Auto => 0,
        Stages::AutoCarveout(b) => b,
    };
    let stages = (capacity - user) / stage;
    notes.push(format!(
        "{}: ({kept} - {user} B carveout) / {stage} B a stage (A {} B + B {} B + {STAGE_PIPELINE_BYTES} B of barriers, rounded + SFA {} B + SFB {} B) = {stages} stages",
        cfg.stages, tile_bytes[0], tile_bytes[1], sf_bytes[0], sf_bytes[1]
    ));
    Ok(stages)
}

/// One stage of the mainloop's `SharedStorage`: A's and B's tiles, SFA's and SFB's, and the
/// stage's full and empty barriers.
pub(super) fn stage_storage(tile_bytes: [i64; 2], sf_bytes: [i64; 2]) -> Result<i64> {
    [
        tile_bytes[0],
        tile_bytes[1],
        sf_bytes[0],
        sf_bytes[1],
        STAGE_BARRIER_BYTES,
    ]
    .into_iter()
    .try_fold(0i64, arith::add)
}

/// The scale factors' K (`Sm1xxBlockScaledConfig` and SM120's builder): the tile's K in
/// whole blocks of 4 vectors, and the MMA's K (`atom_k`) whole vectors that divide a block.
/// C++ truncates K / VS / 4 and fails further on: no block at all leaves the scale factors'
/// TMA box empty, a partial one does not divide the tile. The factors an MMA reads a row.
pub(super) fn sf_per_mma(atom_k: i64, vs: i64, k: i64) -> Result<i64> {
    let nsf = if vs > 0 { atom_k / vs } else { 0 };
    if nsf > 0 && atom_k % vs == 0 && BLK_SF % nsf == 0 && k % (vs * BLK_SF) == 0 {
        return Ok(nsf);
    }
    let msg = if k < vs * BLK_SF {
        "TMA requires CTA_Tile and SLayout top-level size equivalence."
    } else {
        "Shape Divisibility Condition"
    };
    Err(refuse(
        msg,
        format!(
            "tile K = {k} with {vs}-element scale vectors: the scale-factor layout takes K in blocks of {} ({BLK_SF} factors), and the MMA's K = {atom_k} in whole vectors",
            vs * BLK_SF
        ),
    ))
}

/// One stage's bytes: A's and B's `mn` x `k` tiles at their smem widths, and the scale
/// factors' (`size(filter_zeros(SmemLayoutAtomSF))`).
pub(super) fn stage_parts(
    mn: [i64; 2],
    k: i64,
    bits: [i64; 2],
    sf_atoms: &[Layout; 2],
) -> Result<([i64; 2], [i64; 2])> {
    let tile = |i: usize| -> Result<i64> { Ok(arith::mul(arith::mul(mn[i], k)?, bits[i])? / 8) };
    Ok((
        [tile(0)?, tile(1)?],
        [
            layout::filter_zeros(&sf_atoms[0]).size()?,
            layout::filter_zeros(&sf_atoms[1]).size()?,
        ],
    ))
}
