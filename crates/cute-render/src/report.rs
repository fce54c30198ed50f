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
        "arch": r.arch,
        "smem_limit": r.smem_limit,
        "verdict": r.verdict().name(),
        "sections": r.sections.iter().map(|s| json!({
            "kind": s.kind,
            "name": s.name,
            "verdict": s.verdict.name(),
            "headline": s.headline,
            "facts": s.facts.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
            "warnings": s.warnings.iter().map(|w| json!({"reason": w.reason, "fix": w.fix})).collect::<Vec<_>>(),
            "view": s.view,
        })).collect::<Vec<_>>(),
    })
}
