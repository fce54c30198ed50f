//! CuTeDSL's Blackwell dense-GEMM helpers against the real CuTeDSL
//! (`testdata/dsl-sm100-epilogue-cases.jsonl`, from `tools/oracle/dsl_sm100_epilogue.py`):
//! `sm100_utils.compute_epilogue_tile_shape`, `get_tmem_load_op`, `make_smem_layout_epi`,
//! `cute.size_in_bytes` and the dense-GEMM example's stage computation, each block
//! evaluated as pasted; what the DSL refuses is an error here, in its words. Where the
//! DSL's smem layout differs from C++'s (`dsl_differs`: an identity swizzle C++ drops, its
//! MN_SW128_32B atom), the line's `expect` is the C++ headers' value and wins.

use serde_json::Value as Json;

/// The C++ name and TV layouts of a printed copy atom, as the golden line writes them.
fn atom_key(printed: &str) -> Option<String> {
    let name = printed.strip_prefix("Copy_Atom ")?.split(' ').next()?;
    let between = |from: &str, to: &str| -> Option<String> {
        let s = printed.split(from).nth(1)?;
        Some(s.split(to).next()?.to_string())
    };
    Some(format!(
        "{name}|{}|{}",
        between("SrcLayout ", ", DstLayout")?,
        between("DstLayout ", ", RefLayout")?
    ))
}

#[test]
fn sm100_helpers_match_cutedsl() {
    let text = include_str!("../../../testdata/dsl-sm100-epilogue-cases.jsonl");
    let (mut n, mut errors, mut differs, mut failures) = (0, 0, 0, Vec::new());
    let mut ops = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Json = serde_json::from_str(line).expect("a JSON line");
        let (op, code, expect) = (
            case["op"].as_str().unwrap(),
            case["code"].as_str().unwrap(),
            case["expect"].as_str().unwrap(),
        );
        ops.insert(op.to_string());
        n += 1;
        differs += usize::from(case.get("dsl_differs").is_some());
        let got = cute_lang::eval_block(code);
        if expect == "error" {
            errors += 1;
            let msg = case["msg"].as_str().unwrap_or("");
            // The DSL's ValueError's words (before any `: detail`), where it has words.
            let words = msg
                .strip_prefix("ValueError: ")
                .map(|m| m.split(':').next().unwrap_or(m).trim_end_matches('.'));
            match (&got, words) {
                (Ok(v), _) => failures.push(format!("{code}\n  DSL: {msg}\n  got: {v}")),
                (Err(e), Some(w)) if !e.to_string().contains(w) => {
                    failures.push(format!("{code}\n  DSL: {msg}\n  got: {e}"))
                }
                _ => {}
            }
            continue;
        }
        let printed = match &got {
            Ok(v) => v.to_string(),
            Err(e) => format!("error: {e}"),
        };
        let shown = if op == "get_tmem_load_op" {
            atom_key(&printed).unwrap_or(printed)
        } else {
            printed
        };
        if shown != expect {
            failures.push(format!("{code}\n  DSL: {expect}\n  got: {shown}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} lines differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The file covers each helper, refusals included.
    assert!(
        n >= 1500 && errors >= 50 && differs >= 20,
        "{n} lines, {errors} errors, {differs} where C++ differs"
    );
    for op in [
        "compute_epilogue_tile_shape",
        "get_tmem_load_op",
        "make_smem_layout_epi",
        "size_in_bytes",
        "compute_stages",
        "compute_stages_sm90",
    ] {
        assert!(ops.contains(op), "no {op} lines");
    }
}

/// A CuTeDSL kernel class's attributes (`self.mma_tiler = ...`, read back as
/// `self.mma_tiler`) are the block's names, so a set-up method's lines paste as they are:
/// the same values as the top-level preset.
#[test]
fn a_kernel_class_s_attributes_are_names() {
    let preset = cute_lang::kernel::PRESETS
        .iter()
        .find(|p| p.0 == "sm100_dsl")
        .unwrap()
        .2;
    // Every binding as an attribute, every later use of it as `self.NAME`.
    let names: Vec<&str> = preset
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(n, _)| n.trim()))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let mut class = String::new();
    for line in preset.lines() {
        let mut l = line.to_string();
        for n in &names {
            l = l
                .split(' ')
                .map(|w| {
                    let core = w.trim_start_matches('(');
                    let lead = &w[..w.len() - core.len()];
                    let tail_at = core
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(core.len());
                    if &core[..tail_at] == *n {
                        format!("{lead}self.{core}")
                    } else {
                        w.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
        }
        class.push_str(&l);
        class.push('\n');
    }
    assert!(
        class.contains("self.num_ab_stage = (self.smem_capacity"),
        "{class}"
    );
    let got = cute_lang::eval_block(&format!(
        "{class}(self.num_acc_stage, self.num_ab_stage, self.num_c_stage)"
    ))
    .unwrap();
    assert_eq!(got.to_string(), "(1,4,2)");
    let tile = cute_lang::eval_block(&format!("{class}self.epi_tile")).unwrap();
    assert_eq!(tile.to_string(), "(128:1,32:1)");
    // Only `self.` is read through: another object's member is not a name.
    let e = cute_lang::eval_block("import cutlass\nother.x = 1")
        .unwrap_err()
        .to_string();
    assert!(e.contains("is a member"), "{e}");
}
