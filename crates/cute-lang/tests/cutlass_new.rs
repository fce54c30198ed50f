//! Spellings of CUTLASS newer than the 4.2 wheel (the newest NVIDIA/cutlass `include/`),
//! accepted beside the wheel's: where a type changed form, both give the same value.

fn eval(e: &str) -> Result<String, String> {
    cute_lang::eval_block(e)
        .map(|v| v.to_string())
        .map_err(|e| e.to_string())
}

/// CUTLASS 4.2: `SM100_MMA_F8F6F4_SS` is a plain op and `MMA_Traits<SM100_MMA_F8F6F4_SS, A, B,
/// C, C<M>, C<N>, ...>` takes the arguments; newer CUTLASS makes the op a template
/// `<A, B, C, M, N, MajorA, MajorB[, ANeg, BNeg]>` whose traits hold the same checks.
#[test]
fn f8f6f4_as_a_template_equals_its_traits_form() {
    for (op, m, n, ma, mb) in [
        ("SM100_MMA_F8F6F4_SS", 128, 256, "K", "K"),
        ("SM100_MMA_F8F6F4_SS", 64, 64, "MN", "K"),
        ("SM100_MMA_F8F6F4_2x1SM_SS", 256, 128, "MN", "MN"),
    ] {
        let new = format!(
            "{op}<float_e4m3_t, float_e5m2_t, float, {m}, {n}, UMMA::Major::{ma}, UMMA::Major::{mb}>{{}}"
        );
        let old = format!(
            "MMA_Traits<{op}, float_e4m3_t, float_e5m2_t, float, C<{m}>, C<{n}>, integral_constant<UMMA::Major, UMMA::Major::{ma}>, integral_constant<UMMA::Major, UMMA::Major::{mb}>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>{{}}"
        );
        for member in ["Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout"] {
            assert_eq!(
                eval(&format!("get(atom({new}), {member})")),
                eval(&format!("get(atom({old}), {member})")),
                "{op} {m}x{n} {member}"
            );
        }
        let with_neg = new.replace(
            &format!("UMMA::Major::{mb}>"),
            &format!("UMMA::Major::{mb}, UMMA::ScaleIn::One, UMMA::ScaleIn::One>"),
        );
        assert_eq!(eval(&with_neg), eval(&new));
    }
    // The traits' static_asserts hold for the template too.
    let e = eval("SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e4m3_t, float, 96, 256, UMMA::Major::K, UMMA::Major::K>{}").unwrap_err();
    assert!(e.contains("M must be 64 or 128"), "{e}");
    let e = eval("SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e4m3_t, float, 128, 256>{}").unwrap_err();
    assert!(e.contains("expected 7 to 9 template arguments"), "{e}");
}
