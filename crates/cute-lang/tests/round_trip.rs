//! The language reads back what it prints: every layout, int-tuple and composed layout the
//! algebra prints evaluates to the same value (`render --print` output can be pasted back).

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
