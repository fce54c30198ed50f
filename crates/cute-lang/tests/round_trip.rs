//! The language reads back what it prints: every layout, int-tuple and composed layout the
//! algebra prints evaluates to the same value (`render --print` output can be pasted back).

mod common;

use cute_core::{ComposedLayout, IntTuple, Layout, Swizzle};
use cute_lang::{eval_line, Value};
use proptest::prelude::*;

/// A small hierarchical int-tuple (leaves 1..=6, depth ≤ 2).
fn tuple() -> impl Strategy<Value = IntTuple> {
    (1i64..=6)
        .prop_map(IntTuple::Int)
        .prop_recursive(2, 6, 3, |inner| {
            prop::collection::vec(inner, 1..=3).prop_map(IntTuple::Tuple)
        })
}

/// A layout of that shape with strides in -8..=64 (any congruent stride prints and parses).
fn any_layout() -> impl Strategy<Value = Layout> {
    tuple().prop_flat_map(|s| {
        let n = s.leaf_count();
        (Just(s), prop::collection::vec(-8i64..=64, n)).prop_map(|(s, d)| {
            let d = s.unflatten_like(&mut d.into_iter());
            Layout::new(s, d).unwrap()
        })
    })
}

proptest! {
    #[test]
    fn printed_values_evaluate_to_themselves(l in any_layout(), s in tuple(), b in 1i64..=3, m in 0i64..=4) {
        prop_assert_eq!(eval_line(&l.to_string()).unwrap(), Value::Layout(l.clone()));
        prop_assert_eq!(eval_line(&s.to_string()).unwrap().to_int_tuple().unwrap(), s);
        let composed = ComposedLayout::new(Swizzle::new(b, m, b).unwrap(), 0, l).to_string();
        prop_assert_eq!(eval_line(&composed).unwrap().to_string(), composed);
    }
}

/// A GMMA/UMMA smem atom and what is built from it print their offset as C++ does,
/// `smem_ptr[16b](unset)`; pasted back (from a kernel's `print(layout)` too, whose static
/// integers are `_8`), the print reads as the same value.
#[test]
fn smem_atom_prints_read_back() {
    for atom in [
        "GMMA::Layout_K_SW128_Atom<half_t>{}",
        "GMMA::Layout_MN_SW64_Atom<float>{}",
        "tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>{}, make_shape(_64{}, _32{}))",
        "UMMA::Layout_K_SW128_Atom<uint8_t>{}",
    ] {
        let v = eval_line(atom).unwrap();
        let printed = v.to_string();
        assert!(printed.contains("b](unset)"), "{printed}");
        assert_eq!(eval_line(&printed).unwrap(), v, "{printed}");
    }
    let cpp = "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_1),(_64,_1)):((_64,_0),(_1,_512))";
    assert_eq!(
        eval_line(cpp).unwrap().to_string(),
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,1),(64,1)):((64,0),(1,512))"
    );
    assert_eq!(
        eval_line("smem_ptr[16b]").unwrap().to_string(),
        "smem_ptr[16b](unset)"
    );
    assert_eq!(
        eval_line("Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)").unwrap(),
        eval_line("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)").unwrap()
    );
    for (bad, says) in [
        (
            "Sw<3,4,3> o smem_ptr[x] o (8,64):(64,1)",
            "unknown name 'smem_ptr'",
        ),
        (
            "Sw<3,4,3> o smem_ptr[16b](set) o (8,64):(64,1)",
            "(0x1000 or (nil))",
        ),
        ("Sw<3,4,3> o smem_ptr[16b(unset) o (8,64):(64,1)", "close"),
        ("smem_ptr[16c]", "malformed"),
        ("(8,4):(1@0,-1)", "not the integer"),
        ("x@1", "unknown name"),
        ("2@64", "0 to 63"),
    ] {
        let e = match eval_line(bad) {
            Ok(v) => match v {
                // A basis layout with an integer stride is a value; as a counting tensor's
                // layout it is refused.
                cute_lang::Value::BasisLayout(_) => {
                    eval_line(&format!("ArithTuple(0,0) o {bad}")).unwrap_err()
                }
                v => panic!("{bad}: {v}"),
            },
            Err(e) => e,
        };
        assert!(e.to_string().contains(says), "{bad}: {e}");
        assert!(e.col.is_some(), "{bad}: {e}");
    }
}

/// C++'s prints of basis strides read back: every value line of the basis golden data
/// whose print holds a basis stride (`(8,4):(1@0,1@1)`, `3@1`, `ArithTuple(8,32) o
/// (8,16):(1@0,1@1)`) evaluates to a value that prints the same.
#[test]
fn basis_stride_prints_read_back() {
    let mut n = 0;
    for case in common::jsonl("testdata/basis-cases.jsonl") {
        let Some(expect) = case["expect"].as_str() else {
            continue;
        };
        if expect == "error" || !expect.contains('@') {
            continue;
        }
        let back = eval_line(expect).unwrap_or_else(|e| panic!("{expect}: {e}"));
        assert_eq!(back.to_string(), expect);
        n += 1;
    }
    assert!(n >= 400, "only {n} prints with basis strides");
}

/// C++'s print of a gmem or smem tensor (or pointer), swizzled pointers and composed
/// layouts included, reads back as the tensor it prints: every such line C++ printed in
/// the tensor, CuTeDSL and paste golden data (`print(tCsA)` from a kernel pastes as printed).
#[test]
fn cpp_tensor_prints_read_back() {
    let mut n = 0;
    for file in [
        "tensor-cases.jsonl",
        "dsl-tensor-cases.jsonl",
        "paste-cases.jsonl",
        "paste-dynamic-cases.jsonl",
    ] {
        for case in common::jsonl(&format!("testdata/{file}")) {
            let Some(expect) = case["expect"].as_str() else {
                continue;
            };
            let pointer = expect.starts_with("gmem_ptr[")
                || expect.starts_with("smem_ptr[")
                || (expect.starts_with("Sw<") && expect.contains(">_smem_ptr["));
            if !pointer || expect.contains('\n') {
                continue;
            }
            let back = eval_line(expect).unwrap_or_else(|e| panic!("{file}: {expect}: {e}"));
            assert_eq!(back.to_string(), expect, "{file}");
            n += 1;
        }
    }
    assert!(n > 1000, "{n} prints");
    // The others say what they are and what to write.
    for (print, says) in [
        ("ptr[32b](stack) o (4,8):(1,4)", "make_tensor<T>(LAYOUT)"),
        (
            "gmem_subptr[6b](0x1000.0) o (16,16):(1,16)",
            "make_gmem_ptr<T>",
        ),
        ("smem_ptr[12b](0x10) o 8:1", "8 to 128 bits"),
        (
            "Sw<3,4,3>_gmem_ptr[16b](0x10) o 8:1",
            "only shared-memory pointers",
        ),
        ("gmem_ptr[16b](x) o 8:1", "the pointer's address"),
        ("gmem_ptr[16b]((null)) o 8:1", "'(nil)'"),
        (
            "Sw<3,4,3>_smem_ptr[16b] o 8:1",
            "expected the pointer's address",
        ),
        ("gmem_ptr[16b]", "gmem_ptr[16b]((nil))"),
    ] {
        let e = eval_line(print).unwrap_err();
        assert!(e.to_string().contains(says), "{print}: {e}");
        assert!(e.col.is_some(), "{print}: {e}");
    }
}
