//! TMA copies over the atom layer: `make_tma_copy` / `make_tma_atom` (a copy atom and its
//! TiledCopy carrying the box of [`crate::tma`]) and `tma_partition`. The box, the
//! swizzle checks and [`TmaAtom`] are [`crate::tma`]'s, below the atoms.

use crate::error::{Error, Result};
use crate::swizzle::AnyLayout;
use crate::tma::{leaf, make_tma_box_tiled, TmaAtom, TmaBox, TMA_OPS};

/// CuTe `make_tma_copy(op, gtensor, slayout[, cta_tiler], cluster_size)`: the CTA-collective
/// TiledCopy of one TMA instruction per box (`make_tma_copy_tiled`), its atom carrying the
/// box and the TMA coordinate strides.
///
/// ```
/// use cute_core::tensor::{Iter, Ptr, Space, Tensor};
/// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
/// use cute_core::layout::{tile_to_shape, ModeOrder};
/// use cute_core::tma_copy::make_tma_copy;
/// let g = Tensor::new(Iter::Ptr(Ptr::new(Space::Gmem, 16, 0)), "(512,256):(256,1)".parse().unwrap());
/// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
/// let s = atom.map_inner(|l| tile_to_shape(l, &"(128,64)".parse().unwrap(), &ModeOrder::ColMajor)).unwrap();
/// let tma = make_tma_copy("SM90_TMA_LOAD", &g, &s, None, 1).unwrap();
/// assert_eq!(tma.tiler.to_string(), "(128,64)");
/// assert_eq!(tma.layout_tv.to_string(), "(1,(((64,128),1))):(0,(((128,1),0)))");
/// ```
pub fn make_tma_copy(
    op: &'static str,
    gtensor: &crate::tensor::Tensor,
    slayout: &AnyLayout,
    cta_tiler: Option<&crate::int_tuple::IntTuple>,
    cluster: i64,
) -> Result<crate::atom::TiledCopy> {
    use crate::int_tuple::IntTuple;
    use crate::layout::{self as alg, Layout, ModeOrder};
    let atom = make_tma_atom(op, gtensor, slayout, cta_tiler, cluster)?;
    let tma = atom
        .tma
        .as_deref()
        .expect("make_tma_atom sets the TMA part");
    let s = slayout.inner();
    let tiler = match cta_tiler {
        Some(t) => t.product_each()?,
        None => s.shape().product_each()?,
    };
    let n = tma.num_vals();
    let inv = alg::right_inverse(s)?;
    let layout_v = alg::composition(&inv, &Layout::new(IntTuple::Int(n), IntTuple::Int(1))?)?;
    let layout_vv = alg::tile_to_shape(
        &alg::make_layout(&[layout_v]),
        &IntTuple::Int(s.size()?),
        &ModeOrder::ColMajor,
    )?;
    // make_layout(cluster_size): a compact layout, stride 0 for a single CTA.
    let t_map = Layout::new(
        IntTuple::Int(cluster),
        IntTuple::Int(i64::from(cluster > 1)),
    )?;
    // safe_div(num_elems_per_tma, cosize(cta_t_map)): C++ asserts the division.
    if n % cluster != 0 {
        return Err(crate::err!(
            "make_tma_copy: a box of {n} elements does not split over {cluster} multicast CTAs (safe_div)"
        ));
    }
    let layout_t = Layout::new(IntTuple::Int(cluster), IntTuple::Int(n / cluster))?;
    let layout_tt = alg::composition(&inv, &alg::composition(&layout_t, &t_map)?)?;
    let layout_tv = alg::make_layout(&[layout_tt, layout_vv]);
    crate::atom::make_tiled_copy_impl(&atom, layout_tv, tiler)
}

/// CuTe `make_tma_atom(op, gtensor, slayout, cta_tiler[, cluster_size])`: the TMA copy atom
/// alone (`make_tma_copy_atom`), `NumValSrc` the box's elements.
pub fn make_tma_atom(
    op: &'static str,
    gtensor: &crate::tensor::Tensor,
    slayout: &AnyLayout,
    cta_tiler: Option<&crate::int_tuple::IntTuple>,
    cluster: i64,
) -> Result<crate::atom::CopyAtom> {
    use crate::int_tuple::IntTuple;
    use crate::layout::Layout;
    use crate::tensor::{Iter, Space};
    if !TMA_OPS.contains(&op) {
        return Err(crate::err!(
            "{op} is not a TMA operation (make_tma_copy takes {})",
            TMA_OPS.join(", ")
        ));
    }
    let Iter::Ptr(p) = &gtensor.iter else {
        return Err(crate::err!(
            "make_tma_copy needs a global-memory tensor (make_tensor(make_gmem_ptr<T>(p), ...)), got {gtensor}"
        ));
    };
    // C++ takes any pointer here (a host build never encodes the tensor map); the driver
    // refuses a shared or register address, so the language does.
    if matches!(p.space, Space::Smem | Space::Rmem) || gtensor.swizzle.is_some() {
        return Err(crate::err!(
            "make_tma_copy needs a global-memory tensor (make_gmem_ptr or a raw T*) over a plain layout, got {gtensor}"
        ));
    }
    if p.addr % 16 != 0 {
        return Err(crate::err!(
            "make_tma_copy: the global address {:#x} is not 16-byte aligned (make_tma_copy_desc asserts it)",
            p.addr
        ));
    }
    if !(1..=16).contains(&cluster) || cluster & (cluster - 1) != 0 {
        return Err(crate::err!(
            "make_tma_copy: the multicast size is {cluster}; TMA multicasts to a power of two of at most 16 CTAs"
        ));
    }
    if cluster > 1 && !op.contains("MULTICAST") {
        return Err(crate::err!(
            "make_tma_copy: {op} does not multicast; use {op}_MULTICAST for a cluster of {cluster}"
        ));
    }
    let s = slayout.inner();
    if let Some(t) = cta_tiler {
        let (tt, st) = (t.product_each()?, s.shape().product_each()?);
        if tt.size()? != st.size()? {
            return Err(Error::new(format!(
                "make_tma_copy: the CTA tile {t} has {} elements, the smem layout {} (TMA requires CTA_Tile and SLayout top-level size equivalence)",
                tt.size()?,
                st.size()?
            )));
        }
    }
    // The CTA tile's extents (an UMMA's partitioned smem `((128,16),1,4)` is the tile
    // `(128,64)`: C++ composes the tile's identity with the smem layout's inverse).
    let cta_tile: Option<Vec<i64>> = match cta_tiler {
        Some(t) => Some(t.product_each()?.leaves()),
        None => None,
    };
    let bits = i64::from(p.bits);
    // The TMA's gmem modes are the tensor's leaves (`(M,K,(H,B))` has four); those the CTA
    // tile walks must be integers here.
    let g = &gtensor.layout;
    if let Some(i) =
        (0..s.rank().min(g.rank())).find(|&i| !g.shape().get(i).is_ok_and(IntTuple::is_int))
    {
        return Err(crate::err!(
            "make_tma_copy: mode {i} of the global layout {g} is nested and the CTA tile walks it: not modelled (nested modes past the tile are)"
        ));
    }
    let g_flat = Layout::new(g.shape().flatten(), g.stride().flatten())?;
    let tma_box = make_tma_box_tiled(&g_flat, slayout, bits, cta_tile.as_deref())?;
    // make_tma_copy_desc truncates the outermost box modes by the multicast width.
    let mut rest = cluster;
    for m in tma_box.modes.iter().rev() {
        if rest <= 1 {
            break;
        }
        let e = m.extent();
        if e % rest != 0 && rest % e != 0 {
            return Err(crate::err!(
                "make_tma_copy: the box {tma_box} does not split evenly over {cluster} multicast CTAs"
            ));
        }
        rest = crate::error::arith::ceil_div(rest, e)?;
    }
    let g_stride = tma_g_stride(&tma_box, &g_flat, bits)?;
    let n = tma_box.size();
    let num_bits = crate::error::arith::mul(n, bits)?;
    let vals = Layout::new(IntTuple::ints(&[1, num_bits]), IntTuple::ints(&[0, 1]))?;
    let atom = crate::atom::CopyAtom {
        name: op.to_string(),
        thr_id: Layout::new(IntTuple::Int(1), IntTuple::Int(0))?,
        src: vals.clone(),
        dst: vals.clone(),
        ref_: vals,
        val_bits: Some(bits),
        tma: Some(Box::new(TmaAtom {
            op,
            tma_box,
            multicast: cluster,
            g_stride,
            g_profile: g.shape().clone(),
        })),
        op_assert: None,
    };
    Ok(atom)
}

/// `make_tma_copy_desc`'s `gmem_tma_basis_stride`: per gmem mode, the TMA coordinate basis
/// it steps (with its scale), or none for a size-1, stride-0 or unused mode.
fn tma_g_stride(
    b: &TmaBox,
    gmem: &crate::layout::Layout,
    bits: i64,
) -> Result<Vec<Option<(i64, usize)>>> {
    use crate::error::arith;
    (0..gmem.rank())
        .map(|i| {
            let (s, sdyn) = leaf(gmem.shape().get(i)?);
            let (d, ddyn) = leaf(gmem.stride().get(i)?);
            if (s == 1 && !sdyn) || (d == 0 && !ddyn) {
                return Ok(None);
            }
            let Some(j) = b
                .modes
                .iter()
                .position(|m| m.basis.iter().any(|x| x.1 == i))
            else {
                return Ok(None);
            };
            let m = &b.modes[j];
            if j == 0 {
                return Ok(Some((d, 0)));
            }
            if m.basis.len() == 1 {
                return Ok(Some((1, j)));
            }
            // A TMA mode merging several gmem modes steps by a run-time scale of its gcd
            // stride (in bytes, at least 16).
            let mut g = 0i64;
            for &(_, e) in &m.basis {
                let (de, _) = leaf(gmem.stride().get(e)?);
                g = gcd(g, de);
            }
            let stride_bytes = arith::mul(g, bits)? / 8;
            let num = arith::mul(d, bits)? / stride_bytes.max(16);
            Ok(Some((arith::ceil_div(num, 8)?, j)))
        })
        .collect()
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// CuTe `tma_partition(atom, cta_coord, cta_layout, stensor, gtensor)`: the smem and gmem
/// tensors as `((TMA, TMA_Iter), Rest...)`, one TMA instruction's values in mode `0.0`,
/// offset to the multicast slice of CTA `cta_coord`. Returns `(gresult, sresult)`.
pub fn tma_partition(
    tma: &TmaAtom,
    cta_coord: i64,
    cta_layout: &crate::layout::Layout,
    stensor: &crate::tensor::Tensor,
    gtensor: &crate::tensor::Tensor,
) -> Result<(crate::tensor::Tensor, crate::tensor::Tensor)> {
    use crate::error::arith;
    use crate::int_tuple::IntTuple;
    use crate::layout::{self as alg, Layout, ModeOrder, Tiler};
    let (s0, g0) = (stensor.layout.mode(0)?, gtensor.layout.mode(0)?);
    if s0.size()? != g0.size()? {
        return Err(Error::new(format!(
            "tma_partition: mode 0 of the smem tensor has {} elements, of the gmem tensor {} (group the tile modes: group_modes<0,2>(sA), group_modes<0,2>(gA))",
            s0.size()?,
            g0.size()?
        )));
    }
    let n_cta = cta_layout.size()?;
    if cta_coord < 0 || cta_coord >= n_cta {
        return Err(crate::err!(
            "tma_partition: the CTA coordinate {cta_coord} is outside the CTA layout {cta_layout} ({n_cta} CTAs)"
        ));
    }
    let inv = alg::right_inverse(&s0)?;
    let layout_v = alg::tile_to_shape(
        &alg::make_layout(&[inv]),
        &IntTuple::Int(s0.size()?),
        &ModeOrder::ColMajor,
    )?;
    let nv = tma.num_vals();
    let tma_layout_v = Layout::new(IntTuple::Int(nv), IntTuple::Int(1))?;
    let layout_vv = alg::logical_divide(&layout_v, &Tiler::Layout(tma_layout_v))?;
    let profile: IntTuple = IntTuple::Tuple(vec![IntTuple::ints(&[1, 1])]);
    let cosize = cta_layout.cosize()?;
    let mcast = arith::mul(
        cta_layout.call_coord(&IntTuple::Int(cta_coord))?,
        arith::div(nv, cosize)?,
    )?;
    let side = |t: &crate::tensor::Tensor| -> Result<crate::tensor::Tensor> {
        let r = t.layout.rank();
        let mut tiler = vec![Tiler::Layout(layout_vv.clone())];
        tiler.extend((1..r).map(|_| Tiler::Under));
        let composed = alg::composition_tiler(&t.layout, &Tiler::Tuple(tiler))?;
        let v = alg::coalesce(&composed, Some(&profile))?;
        let mut crd = vec![IntTuple::ints(&[mcast, 0])];
        crd.extend((1..r).map(|_| IntTuple::Int(0)));
        let off = v.call_coord(&IntTuple::Tuple(crd))?;
        t.with_layout(v)?.offset_by(off)
    };
    Ok((side(gtensor)?, side(stensor)?))
}
