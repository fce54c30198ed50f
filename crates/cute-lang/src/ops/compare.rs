//! `functionally_equal(a, b)`: each operand sampled as a function of its 1-D index, by
//! kind (offsets, coordinates or addresses), then compared by `cute_core::compare`.

use crate::value::Value;
use cute_core::basis::{coordinate, BasisValue};
use cute_core::compare::{functionally_equal, Comparison, Image, Sampled};
use cute_core::error::Result;
use cute_core::int_tuple::{idx2crd, IntTuple};
use cute_core::tensor::{Iter, Tensor};

/// `functionally_equal(a, b)`.
pub(crate) fn compare(a: &Value, b: &Value) -> Result<Comparison> {
    let (sa, sb) = (sampled(a)?, sampled(b)?);
    let (ka, kb) = (image_kind(&sa), image_kind(&sb));
    if let (Some(ka), Some(kb)) = (ka, kb) {
        if ka != kb {
            return Err(cute_core::err!(
                "functionally_equal compares functions with the same kind of value: {} gives {ka}, {} gives {kb}",
                a.kind(),
                b.kind()
            ));
        }
    }
    Ok(functionally_equal(sa, sb))
}

fn image_kind(s: &Sampled) -> Option<&'static str> {
    s.images.first().map(|i| match i {
        Image::Offset(_) => "offsets",
        Image::Coord(_) => "coordinates",
        Image::Addr(_) => "addresses",
    })
}

/// A value as the function of its 1-D index it is.
fn sampled(v: &Value) -> Result<Sampled> {
    match v {
        Value::Layout(l) => {
            let n = Sampled::domain_size(l.shape())?;
            let offsets = l.offsets(0, usize::try_from(n).unwrap_or(0))?;
            Sampled::new(l.shape().clone(), |i| Ok(Image::Offset(offsets[i as usize])))
        }
        Value::Composed(c) => {
            Sampled::new(c.layout.shape().clone(), |i| Ok(Image::Offset(c.call_index(i)?)))
        }
        Value::Composition(c) => {
            Sampled::new(c.domain()?.shape().clone(), |i| Ok(Image::Offset(c.call_index(i)?)))
        }
        Value::BasisLayout(l) => Sampled::new(l.shape.clone(), |i| {
            Ok(match l.call(&IntTuple::Int(i))? {
                BasisValue::Int(n) => Image::Offset(n.v),
                BasisValue::Tuple(t) => Image::coord(t.0),
                BasisValue::Basis(b) => Image::coord(coordinate([&b])?.0),
            })
        }),
        // A thread-value layout `(tile, tv)`: (thread, value) to the (m, n) of the tile.
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
            let Value::Layout(tv) = &vs[1] else {
                unreachable!("matched above")
            };
            let tile = vs[0].to_int_tuple()?.product_each()?;
            Sampled::new(tv.shape().clone(), |i| {
                Ok(Image::coord(idx2crd(&IntTuple::Int(tv.call_index(i)?), &tile)?))
            })
        }
        Value::Tensor(t) => tensor(t),
        Value::Partition(p) => tensor(&p.tensor),
        v => Err(cute_core::err!(
            "functionally_equal compares layouts, composed layouts, thread-value layouts (tile, tv) and tensors, got {}",
            v.kind()
        )),
    }
}

/// A tensor's elements: coordinates of a counting iterator, addresses otherwise.
fn tensor(t: &Tensor) -> Result<Sampled> {
    let layout = t.any_layout();
    let shape = layout.inner().shape().clone();
    match &t.iter {
        Iter::Counting { .. } => Sampled::new(shape, |i| {
            let c = t.coordinate_at(&IntTuple::Int(i))?;
            Ok(Image::coord(c.unwrap_or(IntTuple::Int(i))))
        }),
        iter => Sampled::new(shape, |i| {
            Ok(Image::Addr(iter.offset(layout.call_index(i)?)?))
        }),
    }
}
