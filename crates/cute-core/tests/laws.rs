//! Property tests for the laws CuTe's algebra relies on.

use cute_core::layout::{self as alg, Tiler};
use cute_core::{ComposedLayout, IntTuple, Layout, Swizzle};
use proptest::prelude::*;
use std::collections::HashSet;

/// A random hierarchical shape of total size ≤ 2^10, leaves in 1..=8, depth ≤ 3.
fn shape() -> impl Strategy<Value = IntTuple> {
    let leaf = (1i64..=8).prop_map(IntTuple::Int);
    leaf.prop_recursive(3, 8, 3, |inner| {
        prop::collection::vec(inner, 1..=3).prop_map(IntTuple::Tuple)
    })
    .prop_filter("size ≤ 1024", |s| {
        s.size().map(|n| n <= 1024).unwrap_or(false)
    })
}

/// A power-of-two shape (composition's divisibility conditions always hold).
fn pow2_shape() -> impl Strategy<Value = IntTuple> {
    let leaf = (0u32..=3).prop_map(|k| IntTuple::Int(1 << k));
    leaf.prop_recursive(3, 6, 3, |inner| {
        prop::collection::vec(inner, 1..=3).prop_map(IntTuple::Tuple)
    })
    .prop_filter("size ≤ 512", |s| {
        s.size().map(|n| n <= 512).unwrap_or(false)
    })
}

/// A bijective layout onto [0, size): compact strides in a random mode order.
fn bijective() -> impl Strategy<Value = Layout> {
    shape()
        .prop_flat_map(|s| {
            let n = s.leaf_count();
            (Just(s), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
        })
        .prop_map(|(s, order)| permuted_compact(&s, &order))
}

fn permuted_compact(s: &IntTuple, order: &[usize]) -> Layout {
    let leaves = s.leaves();
    let mut strides = vec![0i64; leaves.len()];
    let mut cur = 1i64;
    for &i in order {
        strides[i] = cur;
        cur *= leaves[i];
    }
    Layout::new(s.clone(), s.unflatten_like(&mut strides.into_iter())).unwrap()
}

/// A power-of-two layout with power-of-two (or zero) strides.
fn pow2_layout() -> impl Strategy<Value = Layout> {
    pow2_shape()
        .prop_flat_map(|s| {
            let n = s.leaf_count();
            let stride = prop::collection::vec(
                prop_oneof![Just(0i64), (0u32..=6).prop_map(|k| 1i64 << k)],
                n,
            );
            (Just(s), stride)
        })
        .prop_map(|(s, d)| {
            let d = s.unflatten_like(&mut d.into_iter());
            Layout::new(s, d).unwrap()
        })
}

/// An admissible right-hand side: a permuted compact power-of-two layout scaled by 2^k,
/// some modes broadcast (stride 0). Its terms occupy disjoint bits, so CuTe's
/// right-distributive composition equals function composition.
fn pow2_injective() -> impl Strategy<Value = Layout> {
    pow2_shape()
        .prop_flat_map(|s| {
            let n = s.leaf_count();
            (
                Just(s),
                Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
                0u32..=2,
                prop::collection::vec(prop::bool::weighted(0.2), n),
            )
        })
        .prop_map(|(s, order, k, zero)| {
            let l = permuted_compact(&s, &order);
            let mut d = l
                .stride()
                .leaves()
                .into_iter()
                .zip(zero)
                .map(|(d, z)| if z { 0 } else { d << k });
            let stride = s.unflatten_like(&mut d);
            Layout::new(s, stride).unwrap()
        })
}

fn image(l: &Layout) -> Vec<i64> {
    (0..l.size().unwrap())
        .map(|i| l.call_index(i).unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn composition_is_function_composition(
        (a, b) in (pow2_layout(), pow2_injective())
            .prop_filter("B's codomain lies in A's domain", |(a, b)| b.cosize().unwrap() <= a.size().unwrap())
    ) {
        let r = alg::composition(&a, &b).unwrap();
        prop_assert!(r.shape().compatible(b.shape()).unwrap() || r.size().unwrap() == b.size().unwrap());
        prop_assert_eq!(r.size().unwrap(), b.size().unwrap());
        for i in 0..b.size().unwrap() {
            prop_assert_eq!(r.call_index(i).unwrap(), a.call_index(b.call_index(i).unwrap()).unwrap(), "i={}", i);
        }
    }

    #[test]
    fn complement_is_disjoint_and_completes(s in shape(), seed in any::<u64>(), k in 1i64..=3) {
        // A sub-layout of a bijective layout is injective; its complement fills the rest.
        let n = s.leaf_count();
        let mut order: Vec<usize> = (0..n).collect();
        let mut x = seed;
        for i in (1..n).rev() { x = x.wrapping_mul(6364136223846793005).wrapping_add(1); order.swap(i, (x >> 33) as usize % (i + 1)); }
        let full = permuted_compact(&s, &order);
        let keep = (seed as usize) % n;
        let flat = full.flatten();
        let sub = Layout::new(IntTuple::Int(flat.shape().leaves()[keep]), IntTuple::Int(flat.stride().leaves()[keep])).unwrap();
        let target = full.size().unwrap() * k;
        let c = alg::complement(&sub, Some(&IntTuple::Int(target))).unwrap();
        let a: HashSet<i64> = image(&sub).into_iter().collect();
        for (i, v) in image(&c).into_iter().enumerate().skip(1) {
            prop_assert!(!a.contains(&v), "complement hits {} at {}", v, i);
        }
        let both = alg::make_layout(&[sub.clone(), c.clone()]);
        let mut img = image(&both);
        img.sort_unstable();
        prop_assert_eq!(img, (0..target).collect::<Vec<_>>(), "(L, complement) is a bijection onto [0, {})", target);
    }

    #[test]
    fn inverses_round_trip(l in bijective()) {
        let r = alg::right_inverse(&l).unwrap();
        prop_assert_eq!(r.size().unwrap(), l.size().unwrap());
        for i in 0..r.size().unwrap() {
            prop_assert_eq!(l.call_index(r.call_index(i).unwrap()).unwrap(), i);
        }
        let li = alg::left_inverse(&l).unwrap();
        for i in 0..l.size().unwrap() {
            prop_assert_eq!(li.call_index(l.call_index(i).unwrap()).unwrap(), i);
        }
    }

    /// The odometer the renderer draws big grids with gives `call_index`, index by index,
    /// for any strides (negative and zero too) and base.
    #[test]
    fn offsets_are_call_index_in_order(
        s in shape(),
        d in prop::collection::vec(-50i64..=50, 12),
        base in -1000i64..=1000,
    ) {
        let l = Layout::new(s.clone(), s.unflatten_like(&mut d.into_iter().cycle())).unwrap();
        let want: Vec<i64> = (0..l.size().unwrap()).map(|i| base + l.call_index(i).unwrap()).collect();
        prop_assert_eq!(l.offsets(base, 1024).unwrap(), want);
    }

    #[test]
    fn coalesce_and_filter_preserve_the_function(l in pow2_layout()) {
        let c = alg::coalesce(&l, None).unwrap();
        prop_assert!(c.depth() <= 1);
        prop_assert_eq!(c.size().unwrap(), l.size().unwrap());
        prop_assert_eq!(image(&c), image(&l));
        let f = alg::filter(&l).unwrap();
        let a: HashSet<i64> = image(&l).into_iter().collect();
        let b: HashSet<i64> = image(&f).into_iter().collect();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn divide_and_product_sizes(a in bijective(), t in 1i64..=4) {
        let n = a.size().unwrap();
        // The first flat mode evenly divides the layout.
        let tile = a.flatten().shape().leaves()[0];
        let d = alg::logical_divide(&a, &Tiler::Int(tile)).unwrap();
        prop_assert_eq!(d.size().unwrap(), n);
        prop_assert_eq!(d.mode(0).unwrap().size().unwrap(), tile);
        let b = Layout::col_major(IntTuple::Int(t)).unwrap();
        let p = alg::logical_product(&a, &Tiler::Layout(b.clone())).unwrap();
        // The rank-sensitive products zip block and tiler mode by mode: CuTe needs the same
        // profile at the top (an integer shape does not zip with a 1-tuple).
        let b_like = match a.shape() {
            IntTuple::Int(_) => b.clone(),
            s => {
                let mut modes = vec![1i64; s.rank()];
                modes[0] = t;
                Layout::col_major(IntTuple::ints(&modes)).unwrap()
            }
        };
        prop_assert_eq!(p.size().unwrap(), n * t);
        prop_assert_eq!(alg::blocked_product(&a, &b_like).unwrap().size().unwrap(), n * t);
        prop_assert_eq!(alg::raked_product(&a, &b_like).unwrap().size().unwrap(), n * t);
        // A product of a bijection with a compact tiler is a bijection.
        let mut img = image(&p);
        img.sort_unstable();
        prop_assert_eq!(img, (0..n * t).collect::<Vec<_>>());
    }

    #[test]
    fn swizzle_is_an_involution(b in 0i64..=5, m in 0i64..=5, s_abs in 0i64..=8, neg in any::<bool>(), x in 0i64..(1 << 20)) {
        let s = if neg { -s_abs.max(b) } else { s_abs.max(b) };
        let sw = Swizzle::new(b, m, s).unwrap();
        prop_assert_eq!(sw.apply(sw.apply(x)), x);
        prop_assert_eq!(sw.yyy_mask() & sw.zzz_mask(), if s == 0 { sw.yyy_mask() } else { sw.yyy_mask() & sw.zzz_mask() });
    }

    /// What CuTe prints, the literal reader reads back (the language's `(4,8):(8,1)` and the
    /// atom table rest on it).
    #[test]
    fn parse_print_round_trip(l in pow2_layout(), s in shape(), b in 0i64..=3, m in 0i64..=4) {
        prop_assert_eq!(l.to_string().parse::<Layout>().unwrap(), l.clone());
        prop_assert_eq!(s.to_string().parse::<IntTuple>().unwrap(), s);
        let composed = ComposedLayout::new(Swizzle::new(b.max(1), m, b.max(1)).unwrap(), 0, l.clone());
        prop_assert_eq!(composed.to_string(), format!("Sw<{},{m},{}> o 0 o {l}", b.max(1), b.max(1)));
    }
}

/// Random warp addresses for an instruction: aligned, some lanes inactive.
fn warp_addrs(align: u64) -> impl Strategy<Value = Vec<Option<u64>>> {
    prop::collection::vec(prop::option::weighted(0.9, 0u64..512), 32)
        .prop_map(move |v| v.into_iter().map(|a| a.map(|a| a * align)).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Wavefronts are never below the ideal, the ideal is at least one per busy phase, and
    /// ncu's conflict count is what lies above one wavefront per phase.
    #[test]
    fn bank_wavefronts_bound_the_ideal(a in warp_addrs(16), k in 0usize..6) {
        use cute_core::bank::{analyze_warp, Instr};
        let instr = [Instr::Lds(32), Instr::Lds(64), Instr::Lds(128), Instr::Sts(64), Instr::Sts(128),
                     Instr::Ldsm { count: 4, trans: false }][k];
        let r = analyze_warp(instr, &a).unwrap();
        prop_assert!(r.wavefronts >= r.ideal);
        prop_assert!(r.ideal as usize >= r.phases.len());
        prop_assert_eq!(r.conflicts as usize, r.wavefronts as usize - r.phases.len());
        prop_assert!(r.phases.len() <= instr.max_phases());
    }

    /// A 32-bit access costs the worst bank's number of distinct words, whatever the lane
    /// order (one phase: lanes are interchangeable).
    #[test]
    fn lds32_cost_ignores_lane_order(a in warp_addrs(4), seed in any::<u64>()) {
        use cute_core::bank::{analyze_warp, Instr};
        let mut b = a.clone();
        let n = b.len();
        for i in 0..n { b.swap(i, (seed.rotate_left(i as u32) as usize) % n); }
        let ra = analyze_warp(Instr::Lds(32), &a).unwrap();
        let rb = analyze_warp(Instr::Lds(32), &b).unwrap();
        prop_assert_eq!(ra.wavefronts, rb.wavefronts);
    }

    /// A global access touches at least the sectors its bytes need and at most one per
    /// active lane, between one and four sectors per line, whatever the lane order (but
    /// cp.async.cg, which goes a quarter-warp at a time).
    #[test]
    fn gmem_sectors_bound(a in warp_addrs(16), k in 0usize..5, seed in any::<u64>()) {
        use cute_core::gmem::{analyze_gmem_warp, GmemOp};
        let op = [GmemOp::Ldg(32), GmemOp::Ldg(64), GmemOp::Ldg(128), GmemOp::Stg(32),
                  GmemOp::CpAsync { bits: 128, bypass: true }][k];
        let ordered = k < 4;
        let r = analyze_gmem_warp(op, &a).unwrap();
        let active = a.iter().flatten().count() as u32;
        prop_assert!(r.min_sectors <= r.sectors && r.sectors <= active);
        prop_assert!(r.lines <= r.sectors && r.sectors <= 4 * r.lines);
        prop_assert!(r.min_lines <= r.lines);
        prop_assert_eq!(r.requests, u32::from(active > 0));
        let mut b = a.clone();
        let n = b.len();
        for i in 0..n { b.swap(i, (seed.rotate_left(i as u32) as usize) % n); }
        let rb = analyze_gmem_warp(op, &b).unwrap();
        prop_assert_eq!(r.bytes, rb.bytes);
        if ordered {
            prop_assert_eq!((r.sectors, r.lines), (rb.sectors, rb.lines));
        }
    }

    /// The best swizzle found is never worse than no swizzle.
    #[test]
    fn swizzle_search_never_loses(rows in 0u32..=3, cols in 2u32..=5, bits in 0usize..3) {
        use cute_core::bank::{swizzle_search, Instr};
        let (r, c) = (8i64 << rows, 8i64 << cols);
        let base = Layout::new(IntTuple::ints(&[r, c]), IntTuple::ints(&[c, 1])).unwrap();
        let eb = [8u32, 16, 32][bits];
        // Thread t reads row t, one 32-bit word (32/eb elements along the row).
        let vec = i64::from(32 / eb);
        let tv = Layout::new(IntTuple::ints(&[r.min(32), vec]), IntTuple::ints(&[1, r])).unwrap();
        let ranked = swizzle_search(&base, eb, &tv, Instr::Lds(32)).unwrap();
        let none = ranked.iter().find(|c| c.label == "none").unwrap();
        prop_assert!(ranked[0].wavefronts <= none.wavefronts);
        prop_assert!(ranked.len() > 1, "some swizzle applies");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// CuTe's definition: `logical_divide(A, B) = composition(A, make_layout(B, complement(B, size(A))))`,
    /// as functions of the linear index (CuTe's cotarget `shape(coalesce(A))` only regroups modes).
    #[test]
    fn logical_divide_is_composition_with_the_complement(a in bijective()) {
        let n = a.size().unwrap();
        let tile = a.flatten().shape().leaves()[0];
        let b = Layout::col_major(IntTuple::Int(tile)).unwrap();
        let d = alg::logical_divide(&a, &Tiler::Layout(b.clone())).unwrap();
        let c = alg::complement(&b, Some(&IntTuple::Int(n))).unwrap();
        let r = alg::composition(&a, &alg::make_layout(&[b, c])).unwrap();
        prop_assert_eq!(d.size().unwrap(), r.size().unwrap());
        prop_assert_eq!(image(&d), image(&r));
    }

    /// zipped/tiled/flat divides and products only regroup the modes of logical_divide and
    /// logical_product: the same function of the linear index.
    #[test]
    fn divides_and_products_regroup_the_logical_ones(a in bijective(), t in 1i64..=4) {
        let tile = Tiler::Int(a.flatten().shape().leaves()[0]);
        let logical = image(&alg::logical_divide(&a, &tile).unwrap());
        for f in [alg::zipped_divide, alg::tiled_divide, alg::flat_divide] {
            prop_assert_eq!(image(&f(&a, &tile).unwrap()), logical.clone());
        }
        let b = Tiler::Layout(Layout::col_major(IntTuple::Int(t)).unwrap());
        let logical = image(&alg::logical_product(&a, &b).unwrap());
        for f in [alg::zipped_product, alg::tiled_product, alg::flat_product] {
            prop_assert_eq!(image(&f(&a, &b).unwrap()), logical.clone());
        }
    }

    /// `unflatten(flatten(x), x) == x` for int-tuples and layouts.
    #[test]
    fn unflatten_inverts_flatten(l in pow2_layout()) {
        let s = l.shape();
        let flat = s.flatten().wrap();
        prop_assert_eq!(&cute_core::int_tuple::unflatten(&flat, s).unwrap(), s);
        let fl = alg::make_layout(&l.flatten().modes());
        prop_assert_eq!(alg::unflatten(&fl, s).unwrap(), l);
    }

    /// `congruent` implies `weakly_congruent`; an integer is weakly congruent with anything;
    /// a tuple is never weakly congruent with an integer.
    #[test]
    fn congruence_orders(a in shape(), b in shape()) {
        prop_assert!(a.weakly_congruent(&a.repeat_like(1)));
        if a.congruent(&b) {
            prop_assert!(a.weakly_congruent(&b));
        }
        prop_assert!(IntTuple::Int(1).weakly_congruent(&b));
        if let IntTuple::Tuple(_) = a {
            prop_assert!(!a.weakly_congruent(&IntTuple::Int(1)));
        }
    }

    /// `idx2crd` and `crd2idx` (column-major, by shape) are inverse on `[0, size)`.
    #[test]
    fn idx2crd_inverts_crd2idx(s in shape()) {
        use cute_core::int_tuple::{crd2idx_shape, idx2crd};
        for i in 0..s.size().unwrap() {
            let c = idx2crd(&IntTuple::Int(i), &s).unwrap();
            prop_assert!(c.congruent(&s) || s.is_int());
            prop_assert_eq!(crd2idx_shape(&c, &s).unwrap(), i);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A layout whose modes put their offsets on disjoint bits (a permuted compact
    /// power-of-two layout scaled by 2^k, some modes broadcast) is linear over GF(2), and
    /// its matrix gives its offsets; so is the layout under a swizzle (offset 0).
    #[test]
    fn f2_of_a_disjoint_bit_layout_is_linear(l in pow2_injective(), b in 0i64..=3, m in 0i64..=3) {
        use cute_core::f2::{to_f2_matrix_composed, to_f2_matrix_layout, F2};
        let F2::Linear(mat) = to_f2_matrix_layout(&l).unwrap() else {
            return Err(TestCaseError::fail(format!("{l} is not linear")));
        };
        prop_assert_eq!(1i64 << mat.cols(), l.size().unwrap());
        for i in 0..l.size().unwrap() {
            prop_assert_eq!(mat.apply(i as u64), l.call_index(i).unwrap() as u64, "i={}", i);
        }
        let c = ComposedLayout::new(Swizzle::new(b, m, b.max(1)).unwrap(), 0, l.clone());
        let F2::Linear(mc) = to_f2_matrix_composed(&c).unwrap() else {
            return Err(TestCaseError::fail(format!("{c} is not linear")));
        };
        for i in 0..l.size().unwrap() {
            prop_assert_eq!(mc.apply(i as u64), c.call_index(i).unwrap() as u64, "i={}", i);
        }
    }

    /// Any power-of-two layout with power-of-two (or zero) strides is either linear, its
    /// matrix giving every offset, or not, with a true witness: `L(a ^ b) != L(a) ^ L(b)`.
    #[test]
    fn f2_is_a_matrix_or_a_true_witness(l in pow2_layout()) {
        use cute_core::f2::{to_f2_matrix_layout, F2};
        match to_f2_matrix_layout(&l).unwrap() {
            F2::Linear(mat) => {
                for i in 0..l.size().unwrap() {
                    prop_assert_eq!(mat.apply(i as u64), l.call_index(i).unwrap() as u64, "i={}", i);
                }
            }
            F2::NotLinear(w) => {
                prop_assert_eq!(w.a & w.b, 0);
                prop_assert_eq!(w.value_a, l.call_index(w.a).unwrap());
                prop_assert_eq!(w.value_b, l.call_index(w.b).unwrap());
                prop_assert_eq!(w.value_xor, l.call_index(w.a ^ w.b).unwrap());
                prop_assert_ne!(w.value_xor, w.value_a ^ w.value_b);
            }
        }
    }

    /// A swizzle's matrix applied is the swizzle, and (a bijection) has full rank.
    #[test]
    fn f2_of_a_swizzle_is_the_swizzle(b in 0i64..=5, m in 0i64..=5, s_abs in 0i64..=8, neg in any::<bool>(), extra in 0u32..=4, x in any::<u64>()) {
        use cute_core::f2::to_f2_matrix_swizzle;
        let s = if neg { -s_abs.max(b) } else { s_abs.max(b) };
        let sw = Swizzle::new(b, m, s).unwrap();
        let span = (b + m + s.abs()).max(1) as u32;
        for bits in [None, Some(span + extra)] {
            let mat = to_f2_matrix_swizzle(&sw, bits);
            prop_assert_eq!(mat.cols() as u32, bits.unwrap_or(span));
            prop_assert_eq!(mat.rows(), mat.cols());
            let x = x & ((1u64 << mat.cols()) - 1);
            prop_assert_eq!(mat.apply(x), sw.apply(x as i64) as u64, "x={:#b}", x);
            prop_assert_eq!(mat.rank(), mat.cols());
        }
    }
}
