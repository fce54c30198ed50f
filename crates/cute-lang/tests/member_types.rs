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

/// `composition(Layout, Swizzle)`: the swizzle moved onto the layout's image of its bits
/// (values from g++ with the CUTLASS 4.2 headers, `print` and `c(i)`).
#[test]
fn a_layout_composed_with_a_swizzle_is_what_cpp_makes() {
    for (e, cpp) in [
        (
            "composition(Layout<_16,_2>{}, Swizzle<2,0,2>{})",
            "Sw<2,1,2> o 0 o 16:2",
        ),
        (
            "composition(Layout<_16,_1>{}, Swizzle<2,0,2>{})",
            "Sw<2,0,2> o 0 o 16:1",
        ),
        (
            "composition(Layout<Shape<_4,_4>,Stride<_4,_1>>{}, Swizzle<1,0,2>{})",
            "Sw<1,0,-2> o 0 o (4,4):(4,1)",
        ),
    ] {
        assert_eq!(eval(e).as_deref(), Ok(cpp), "{e}");
    }
    let c = "composition(Layout<_16,_2>{}, Swizzle<2,0,2>{})";
    let got: Vec<String> = (0..16)
        .map(|i| eval(&format!("{c}({i})")).unwrap())
        .collect();
    assert_eq!(got.join(" "), "0 2 4 6 10 8 14 12 20 22 16 18 30 28 26 24");
    // A layout that does not carry the swizzle's bits onto bits: make_swizzle's assert.
    assert!(eval("composition((4,4):(1,5), Sw<1,0,2>{})").is_err());
}

/// Each epilogue fusion has one row in the type table, whose arity is the fusion's
/// parameters (the required ones first), and the names the table refuses are not fusions.
#[test]
fn every_fusion_kind_is_one_type_row_of_its_arity() {
    use cute_core::epilogue::FusionKind;
    for kind in FusionKind::ALL {
        let rows: Vec<_> = cute_lang::TYPES
            .iter()
            .filter(|r| r.is_named(kind.name()))
            .collect();
        assert_eq!(rows.len(), 1, "{}", kind.name());
        assert_eq!(
            rows[0].arity,
            Some((kind.required(), kind.params().len())),
            "{}",
            kind.name()
        );
    }
    for refused in ["LinCombTopKSoftmaxCol", "LinearCombinationGroupedWgrad"] {
        assert!(FusionKind::parse(refused).is_none(), "{refused}");
        let e = eval(&format!(
            "cutlass::epilogue::fusion::{refused}<2, cutlass::half_t, float>{{}}"
        ))
        .unwrap_err();
        assert!(e.contains("not resolved yet"), "{e}");
    }
}

/// C++'s alternative tokens: `or`, `and` and `not` are `||`, `&&` and `!`, and a statement
/// that ends a line in `or` / `and` goes on to the next line, as CUTLASS's examples break
/// their `constexpr bool` lines.
#[test]
fn alternative_tokens_are_the_logical_operators() {
    assert_eq!(eval("true and not false").unwrap(), "1");
    assert_eq!(eval("false or (1 == 2)").unwrap(), "0");
    assert_eq!(eval("not (3 > 2) or true and false").unwrap(), "0");
    let block = "using E = cutlass::float_e5m2_t;\nconstexpr bool IsFp8 =\n    cute::is_same_v<E, cutlass::float_e4m3_t> or\n    cute::is_same_v<E, cutlass::float_e5m2_t>;";
    assert_eq!(cute_lang::eval_block(block).unwrap().to_string(), "1");
    // A name that only starts like one of them is a name.
    assert!(eval("order").unwrap_err().contains("unknown name 'order'"));
}
