//! Member types of tiled objects as C++ names them (`typename decltype(tiled_mma)::X{}`),
//! with the values g++ prints for them (CUTLASS 4.2 headers).

fn eval(e: &str) -> Result<String, String> {
    cute_lang::eval_block(e)
        .map(|v| v.to_string())
        .map_err(|e| e.to_string())
}

#[test]
fn tiled_mma_members_are_its_atoms_traits() {
    let t = "typename decltype(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}))";
    for (member, cpp) in [
        ("AtomShape_MNK", "(16,8,16)"),
        ("AtomLayoutC_TV", "((4,8),(2,2)):((32,1),(16,8))"),
        ("AtomThrID", "32:1"),
        ("AtomLayoutA_TV", "((4,8),(2,2,2)):((32,1),(16,8,128))"),
    ] {
        assert_eq!(
            eval(&format!("{t}::{member}{{}}")).as_deref(),
            Ok(cpp),
            "{member}"
        );
    }
    // A template parameter, not a member: g++ says it "does not name a type".
    assert!(eval(&format!("{t}::PermutationMNK{{}}")).is_err());
}
