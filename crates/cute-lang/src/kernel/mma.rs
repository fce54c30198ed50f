//! The MMA's sections: its tile against the CTA tile, the GMMA/UMMA descriptors per
//! k-block, the UMMA instruction descriptor and the TMEM columns.

use super::report::*;
use super::roles::*;
use crate::value::Value;
use cute_core::atom::Operand;
use cute_core::atom::{CopyAtom, MmaParams, TiledMma};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::Layout;
use cute_core::swizzle::AnyLayout;
use cute_core::tensor::{Iter, Ptr, Space, Tensor};
use std::fmt;

pub(super) fn mma_sections(r: &Roles, name: &str, mma: &TiledMma) -> Result<Vec<Section>> {
    let umma = matches!(mma.atom.params, Some(MmaParams::Umma(_)));
    let tile = [mma.tile_size(0)?, mma.tile_size(1)?, mma.tile_size(2)?];
    let threads = mma.layout_c_tv()?.mode(0)?.size()?;
    // An UMMA's "threads" are CTAs: a `_2x1SM` MMA's tile is a CTA pair's, half of M each.
    let pair = umma && threads == 2;
    let per_cta = [if pair { tile[0] / 2 } else { tile[0] }, tile[1], tile[2]];
    let mut facts = vec![
        ("atom".into(), mma.atom.name.clone()),
        (
            "tile".into(),
            format!("{}x{}x{}", tile[0], tile[1], tile[2]),
        ),
        (
            if umma { "CTAs" } else { "threads" }.into(),
            threads.to_string(),
        ),
    ];
    if pair {
        facts.push((
            "per CTA".into(),
            format!(
                "{}x{}x{} (M split over the pair)",
                per_cta[0], per_cta[1], per_cta[2]
            ),
        ));
    }
    let mut warnings = Vec::new();
    let cta = cta_tile(r);
    if let Some(cta) = &cta {
        facts.push((
            "CTA tile".into(),
            format!("{}x{}x{}", cta[0], cta[1], cta[2]),
        ));
        for (i, d) in ["M", "N", "K"].iter().enumerate() {
            if per_cta[i] <= 0 || cta[i] % per_cta[i] != 0 {
                warnings.push(Warning {
                    reason: format!(
                        "the CTA tile's {d} = {} is not a multiple of the TiledMMA's {}",
                        cta[i], per_cta[i]
                    ),
                    fix: None,
                });
            }
        }
        if warnings.is_empty() {
            facts.push(("k-blocks".into(), format!("{} per stage", cta[2] / tile[2])));
        }
    }
    // An UMMA's instruction descriptor (`UMMA::make_instr_desc<A, B, C, M, N, MajorA,
    // MajorB>()`), for the families it describes.
    if let Some(MmaParams::Umma(u)) = &mma.atom.params {
        let args = cute_core::desc::InstrArgs {
            a: u.a,
            b: u.b,
            c: u.c,
            m: u.m,
            n: u.n,
            a_major: u.majors[0],
            b_major: u.majors[1],
            a_neg: false,
            b_neg: false,
            saturate: false,
            sparse: false,
            max_shift: 0,
        };
        if let (Ok(d), None) = (cute_core::desc::make_instr_desc(&args), u.sf) {
            facts.push(("instruction descriptor".into(), one_line(&d)));
        }
    }
    let mut out = vec![Section {
        kind: SectionKind::Mma,
        name: name.to_string(),
        verdict: if warnings.is_empty() {
            Verdict::Ok
        } else {
            Verdict::Fail
        },
        headline: format!(
            "{} {}: {}x{}x{} per tile",
            mma.atom.name,
            if pair {
                "issued by a CTA pair (tcgen05.mma.cta_group::2)".to_string()
            } else if umma {
                "issued for the CTA (tcgen05.mma)".to_string()
            } else {
                format!("over {threads} threads")
            },
            tile[0],
            tile[1],
            tile[2]
        ),
        facts,
        warnings,
        view: Some(name.to_string()),
    }];
    // Descriptors per k-block of the operands a GMMA/UMMA reads from shared memory.
    let descs = umma
        || (mma.atom.arch() == Some(cute_core::arch::Arch::Sm90)
            && mma.atom.reads_smem_descriptors());
    if descs {
        for op in [Operand::A, Operand::B] {
            if let Some(s) = desc_section(r, name, mma, op)? {
                out.push(s);
            }
        }
    }
    if let Some((s, columns)) = tmem_section(name, mma, cta.as_deref())? {
        out.push(s);
        for (lname, atom) in &r.tmem_loads {
            out.push(tmem_load_section(lname, atom, columns)?);
        }
    }
    Ok(out)
}

pub(super) fn desc_section(
    r: &Roles,
    name: &str,
    mma: &TiledMma,
    op: Operand,
) -> Result<Option<Section>> {
    let Some((sname, smem)) = r.smem_of(op) else {
        return Ok(None);
    };
    // The whole buffer, stages included: C++'s partition_fragment_A/B(sA) (make_fragment
    // of the partitioned buffer for UMMA), whose (MMA, MMA_M|N, MMA_K, PIPE) descriptors
    // the mainloop issues, one per (tile, k-block, stage).
    let stage = smem.clone();
    let bits = operand_bits(r, op).unwrap_or(16);
    let what = format!("{name}'s {op} descriptors over {sname}");
    let ptr = Ptr::new(
        Space::Smem,
        u32::try_from(bits).map_err(|_| Error::new("element width out of range"))?,
        0,
    );
    let fragment = |t: Tensor| {
        let t = Value::Tensor(Box::new(t));
        if r.umma {
            crate::ops::partitions::make_fragment(op, &[Value::TiledMma(Box::new(mma.clone())), t])
        } else {
            let thr = Value::ThrMma(Box::new(crate::value::ThrMma {
                mma: mma.clone(),
                thr: 0,
            }));
            crate::ops::partitions::partition_fragment(op, &[thr, t])
        }
    };
    let mut frag = fragment(Tensor::over(ptr, &stage).map_err(|e| e.within(&what))?);
    let mut in_pointer = false;
    // CuTeDSL's smem layouts (`S<3,4,3> o 0 o ...`) carry the byte-address swizzle that
    // the kernel moves into the pointer (`get_tensor(layout.outer, swizzle=layout.inner)`,
    // C++'s recast_ptr): the descriptor is that tensor's.
    if let (Err(_), AnyLayout::Composed(c)) = (&frag, &stage) {
        if c.offset == cute_core::swizzle::Offset::Int(0) {
            let swizzled = Ptr {
                swizzle: Some(c.swizzle),
                ..ptr
            };
            let retry = fragment(Tensor::new(Iter::Ptr(swizzled), c.layout.clone()));
            if retry.is_ok() {
                frag = retry;
                in_pointer = true;
            }
        }
    }
    // On the page the row opens the fragment C++ builds, in the block's own names: its
    // layout is every descriptor's start address (16-byte units) by (tile, k-block,
    // stage). A CuTeDSL block's pointer swizzle has no C++ spelling here: no view.
    let view = match (&frag, in_pointer, mma_operand_type(mma, op)) {
        (Ok(Value::DescTensor(_)), false, Some(t)) => {
            let tensor = format!(
                "make_tensor(make_smem_ptr<{}>(nullptr), {sname})",
                t.cpp_name()
            );
            Some(if r.umma {
                format!("{name}.get_slice(0).make_fragment_{op}({tensor})")
            } else {
                format!("{name}.get_slice(0).partition_fragment_{op}({tensor})")
            })
        }
        _ => None,
    };
    let (verdict, facts, warnings, headline) = match frag {
        Ok(Value::DescTensor(d)) => {
            let (mut facts, headline) = desc_table(&d)?;
            if in_pointer {
                facts.push((
                    "swizzle".into(),
                    format!("{}, in the pointer (CuTeDSL's get_tensor(layout.outer, swizzle=layout.inner))", stage_swizzle(&stage)),
                ));
            }
            (Verdict::Ok, facts, vec![], headline)
        }
        Ok(v) => (
            Verdict::Ok,
            vec![("fragment".into(), v.to_string())],
            vec![],
            format!("operand {op} in registers"),
        ),
        Err(e) => (
            Verdict::Fail,
            vec![],
            vec![Warning {
                reason: e.to_string(),
                fix: Some(format!(
                    "tile {sname} from a canonical GMMA/UMMA smem atom (e.g. tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{{}}, ...))"
                )),
            }],
            "no canonical descriptor".to_string(),
        ),
    };
    Ok(Some(Section {
        kind: SectionKind::Desc,
        name: format!("{name}.{op}"),
        verdict,
        headline,
        facts,
        warnings,
        view,
    }))
}

/// Every descriptor of a fragment `(MMA, MMA_M|N, MMA_K[, PIPE])`: one fact per (tile,
/// k-block, stage), stage-major as the mainloop walks them, the count of distinct ones,
/// and the headline.
fn desc_table(d: &cute_core::desc::DescTensor) -> Result<(Vec<(String, String)>, String)> {
    let shape = d.layout.shape();
    let extent = |i: usize| shape.get(i).and_then(IntTuple::size).unwrap_or(1);
    let (tiles, kb) = (extent(1), extent(2));
    let stages = if shape.rank() > 3 { extent(3) } else { 1 };
    let mut facts = Vec::new();
    let mut words = std::collections::BTreeSet::new();
    let mut first = None;
    for s in 0..stages {
        for m in 0..tiles {
            for k in 0..kb {
                let mut at = vec![IntTuple::Int(0); shape.rank()];
                for (i, v) in [(1, m), (2, k), (3, s)] {
                    if i < at.len() {
                        at[i] = IntTuple::Int(v);
                    }
                }
                let desc = d.at(&IntTuple::Tuple(at))?;
                words.insert(desc.word);
                first.get_or_insert_with(|| desc.clone());
                facts.push((format!("tile {m}, k-block {k}, stage {s}"), one_line(&desc)));
            }
        }
    }
    let total = facts.len();
    facts.push(("distinct".into(), format!("{} of {total}", words.len())));
    let first = first.map_or_else(String::new, |d| {
        one_line(&d)
            .split(" (")
            .next()
            .unwrap_or_default()
            .to_string()
    });
    let plural = |n: i64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let headline = format!(
        "{total} descriptors ({} x {} x {}), {} distinct, canonical; the first: {first}",
        plural(tiles, "tile"),
        plural(kb, "k-block"),
        plural(stages, "stage"),
        words.len()
    );
    Ok((facts, headline))
}

pub(super) fn stage_swizzle(l: &AnyLayout) -> String {
    match l {
        AnyLayout::Composed(c) => c.swizzle.to_string(),
        AnyLayout::Layout(_) => "none".into(),
    }
}

/// A descriptor on one line: `GmmaDescriptor: 0x... (start_addr 0x0000, leading_off ...)`.
pub(super) fn one_line(d: &impl fmt::Display) -> String {
    let text = d.to_string();
    let mut lines = text.lines();
    let head = lines.next().unwrap_or_default().trim().to_string();
    let fields: Vec<String> = lines
        .map(|l| {
            l.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(" :", ":")
        })
        .filter(|l| !l.is_empty())
        .collect();
    if fields.is_empty() {
        head
    } else {
        format!("{head} ({})", fields.join(", "))
    }
}

/// An UMMA accumulator's TMEM columns against 512: the section, and the columns.
pub(super) fn tmem_section(
    name: &str,
    mma: &TiledMma,
    cta: Option<&[i64]>,
) -> Result<Option<(Section, i64)>> {
    if !matches!(mma.atom.params, Some(MmaParams::Umma(_))) {
        return Ok(None);
    }
    let Some(cta) = cta else { return Ok(None) };
    let shape = IntTuple::ints(&[cta[0], cta[1]]);
    let what = format!("{name}'s accumulator");
    let part = mma
        .partition_shape(Operand::C, &shape)
        .map_err(|e| e.within(&what))?;
    let frag = crate::ops::partitions::fragment_c(mma, part).map_err(|e| e.within(&what))?;
    let Value::Tensor(t) = &frag else {
        return Ok(None);
    };
    let Some(tm) = cute_core::tmem::TmemTensor::of(t) else {
        return Ok(None);
    };
    let tm = tm?;
    let last = tm.base + tm.layout.cosize()? - 1;
    let end = cute_core::tmem::decode(last, tm.value_bits)?;
    let columns = end.column + 1;
    let over = columns > 512;
    let section = Section {
        kind: SectionKind::Tmem,
        name: format!("{name}.C"),
        verdict: if over { Verdict::Fail } else { Verdict::Ok },
        headline: format!("{columns} of 512 TMEM columns"),
        facts: vec![
            ("accumulator".into(), frag.to_string()),
            ("columns".into(), columns.to_string()),
        ],
        warnings: if over {
            vec![Warning {
                reason: format!("the accumulator needs {columns} TMEM columns, more than 512"),
                fix: Some("halve the CTA tile's N or use a 2-SM MMA".into()),
            }]
        } else {
            vec![]
        },
        view: None,
    };
    Ok(Some((section, columns)))
}

/// A TMEM load atom (`tcgen05.ld`) for the accumulator: what one warp instruction reads of
/// its warp's 32-lane sub-partition (lanes, 32-bit columns, registers per thread, from the
/// atom's `DstLayout` and `ValID`), and how many the accumulator's `columns` take.
pub(super) fn tmem_load_section(name: &str, atom: &CopyAtom, columns: i64) -> Result<Section> {
    let what = format!("{name} ({})", atom.name);
    let val_id: Layout = atom
        .val_id()?
        .ok_or_else(|| cute_core::err!("{what}: no ValID in the atom table"))?;
    let regs = cute_core::tmem::tmem_copy_regs(&atom.dst, &val_id).map_err(|e| e.within(&what))?;
    // Warp 0's instruction (every warp does the same in its own 32 lanes).
    let warp0: Vec<_> = regs.iter().filter(|r| r.thread < 32).collect();
    let mut lanes: Vec<i64> = warp0.iter().map(|r| r.lane).collect();
    lanes.sort_unstable();
    lanes.dedup();
    let mut cols: Vec<i64> = warp0.iter().map(|r| r.column).collect();
    cols.sort_unstable();
    cols.dedup();
    let per_thread = warp0.iter().filter(|r| r.thread == 0).count();
    let (nl, nc) = (lanes.len() as i64, cols.len() as i64);
    let mut facts = vec![
        ("atom".into(), atom.name.clone()),
        (
            "per warp instruction".into(),
            format!(
                "{nl} lanes x {} of the warp's own 32 lanes (warp w of the warpgroup: lanes 32w..32w+31), {} per thread",
                count(nc, "column"),
                count(per_thread as i64, "register")
            ),
        ),
    ];
    let mut warnings = vec![];
    let mut headline = format!(
        "tcgen05.ld: {nl} lanes x {} per warp instruction, {} per thread",
        count(nc, "column"),
        count(per_thread as i64, "register")
    );
    if nl > 0 && nc > 0 && 32 % nl == 0 && columns % nc == 0 {
        let n = (32 / nl) * (columns / nc);
        facts.push((
            "instructions".into(),
            format!("{n} per warp for the accumulator's {columns} columns"),
        ));
        headline = format!("{headline}; {n} instructions per warp for {columns} columns");
    } else {
        warnings.push(Warning {
            reason: format!(
                "the atom reads {nc} columns at a time, which does not divide the accumulator's {columns}"
            ),
            fix: Some("a TMEM load atom whose repetition divides the accumulator's columns".into()),
        });
    }
    Ok(Section {
        kind: SectionKind::Tmem,
        name: name.to_string(),
        verdict: if warnings.is_empty() {
            Verdict::Ok
        } else {
            Verdict::Warn
        },
        headline,
        facts,
        warnings,
        view: Some(format!("{}{{}}", atom.name)),
    })
}

/// `1 column`, `4 columns`.
fn count(n: i64, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
