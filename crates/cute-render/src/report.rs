//! A kernel report ([`cute_lang::kernel::Report`]) as JSON, for scripts: the same sections,
//! verdicts, numbers, facts, warnings and views the Markdown shows.

use cute_lang::kernel::Report;
use serde_json::{json, Value};

/// The report as a JSON value.
///
/// ```
/// let r = cute_lang::kernel::report("TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{});").unwrap();
/// let j = cute_render::report::to_json(&r);
/// assert_eq!(j["arch"], "SM80");
/// assert_eq!(j["sections"][0]["kind"], "mma");
/// ```
pub fn to_json(r: &Report) -> Value {
    json!({
        "arch": r.arch.name(),
        "smem_limit": r.smem_limit,
        "verdict": r.verdict().name(),
        "sections": r.sections.iter().map(|s| json!({
            "kind": s.kind.name(),
            "name": s.name,
            "verdict": s.verdict.name(),
            "headline": s.headline,
            "facts": s.facts.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
            "warnings": s.warnings.iter().map(|w| json!({"reason": w.reason, "fix": w.fix})).collect::<Vec<_>>(),
            "view": s.view,
        })).collect::<Vec<_>>(),
        "problem": r.problem.as_ref().map(|p| json!({
            "mnk": p.mnk,
            "ctas": p.ctas,
            "k_tiles": p.k_tiles,
        })),
        // Per CTA (and k-tile), and over the whole kernel where the problem is known.
        "traffic": r.traffic.iter().map(|t| {
            let row = |t: &cute_lang::kernel::Traffic| json!({
                "instructions": t.instrs,
                "smem_wavefronts": t.wavefronts,
                "smem_ideal_wavefronts": t.ideal_wavefronts,
                "bank_conflicts": t.conflicts,
                "sectors": t.sectors,
                "min_sectors": t.min_sectors,
                "requests": t.requests,
                "bytes": t.bytes,
            });
            json!({
                "object": t.object,
                "instruction": t.instr,
                "per": if t.per_k_tile { "CTA and k-tile" } else { "CTA" },
                "count": row(t),
                "kernel": r.problem.as_ref().map(|p| row(&t.times(p.runs(t)))),
            })
        }).collect::<Vec<_>>(),
    })
}
