//! `Name<targs>{}` and `T::member`: the value of a class template with its arguments is
//! found by an explicit, ordered list of resolvers ([`RESOLVERS`]), each knowing one family
//! of names; the first that knows the name gives the value.

use crate::convert::arity;
use crate::ops;
use crate::parse::tail;
use crate::types::table::lookup_type;
use crate::types::{families, policy, smem};
use crate::value::Value;
use crate::words::Word;
use cute_core::atom::Atom;
use cute_core::error::{Error, Result};
use cute_core::gmma::GmmaOp;
use cute_core::smem_atom::AtomMajor;

/// One family of class templates: the value of `name<targs>` (`name` as written, namespaces
/// but `GMMA::`/`UMMA::` stripped), or `None` when the name is not of this family.
type Resolver = fn(name: &str, targs: &[Value]) -> Option<Result<Value>>;

/// The resolvers in the order they are tried; the first to know a name decides.
pub(crate) const RESOLVERS: &[Resolver] = &[
    // `GMMA::Layout_K_SW128_Atom<T>`, `Layout_SW64_Atom<T, Major>`.
    smem::atom_template,
    // `Layout_K_SW128_Atom_Bits`.
    smem::atom_bits_template,
    #[cfg(feature = "full")]
    // SM100/SM103 UMMA, SM120, `SM80_CP_ASYNC_CACHE*`, `UniversalFMA`, `integral_constant`.
    |name, targs| families::template(tail(name).0, targs),
    #[cfg(feature = "full")]
    // CUTLASS's `Mainloop*` dispatch policies.
    |name, targs| {
        let last = tail(name).0;
        last.starts_with("Mainloop")
            .then(|| policy::policy(last, targs))
            .flatten()
    },
    // The type table's rows.
    table_row,
    #[cfg(feature = "full")]
    // `SM90_64xNx16_..._SS<Major, Major>`.
    gmma_template,
];

/// The value of a C++ class template with its arguments (`Name<targs>{}`).
pub(crate) fn template(name: &str, targs: &[Value]) -> Result<Value> {
    let (last, _) = tail(name);
    let prefix = format!("{last}<...>: ");
    let ctx = |e: Error| Error {
        // Arity errors name the template already.
        msg: if e.msg.starts_with(&prefix) {
            e.msg
        } else {
            format!("{prefix}{}", e.msg)
        },
        col: e.col,
    };
    for resolve in RESOLVERS {
        if let Some(v) = resolve(name, targs) {
            return v.map_err(ctx);
        }
    }
    Err(Error::new(match ops::lookup(last) {
        Some(_) => format!("'{last}' is a function: call it, e.g. {last}<...>(...)"),
        None => format!("unknown type '{last}'"),
    }))
}

/// A row of the type table ([`crate::TYPES`]).
fn table_row(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    let (last, _) = tail(name);
    let row = lookup_type(last)?;
    Some((|| {
        if let Some((lo, hi)) = row.arity {
            arity(last, targs, lo, hi)?;
        }
        (row.body)(targs)
    })())
}

/// A GMMA op named as a class template.
fn gmma_template(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    let op = tail(name).0.parse::<GmmaOp>().ok()?;
    Some(gmma_atom(op, targs))
}

/// `SM90_64xNx16_..._SS<GMMA::Major::A, GMMA::Major::B>`: the traits are the same for every
/// major; C++ refuses an MN-major A read from registers (RS). The `_TN` families take no
/// majors (`<>`).
fn gmma_atom(op: GmmaOp, targs: &[Value]) -> Result<Value> {
    if !op.is_class_template() {
        return Err(cute_core::err!(
            "{op} is not a template (the integer GMMAs take no arguments): write {op}{{}}"
        ));
    }
    arity(
        &op.to_string(),
        targs,
        if op.tn { 0 } else { 2 },
        if op.tn { 0 } else { 2 },
    )?;
    // The traits take any majors; an RS op with an MN-major A is refused only where a
    // value of it is made (`families::check_instance`), as C++ does.
    let mut majors = [AtomMajor::K; 2];
    for (m, (t, which)) in majors.iter_mut().zip(targs.iter().zip(["A", "B"])) {
        if crate::convert::is_mn_major(t, which)? {
            *m = AtomMajor::MN;
        }
    }
    Ok(Value::Atom(Box::new(Atom::Mma(op.atom(majors)?))))
}

/// `T::member` of a type's value: atom traits, composed-layout parts.
pub(crate) fn member_type(v: &Value, member: &str) -> Result<Value> {
    match (v, member) {
        (Value::Composed(c), "layout_a" | "LayoutA") => Ok(Value::Swizzle(c.swizzle)),
        (Value::Composed(c), "layout_b" | "LayoutB") => Ok(Value::Layout(c.layout.clone())),
        (Value::Composed(c), "offset") => Ok(Value::Offset(c.offset)),
        // CuTeDSL names the parts of a composed layout inner (the swizzle) and outer.
        (Value::Composed(c), "inner") => Ok(Value::Swizzle(c.swizzle)),
        (Value::Composed(c), "outer") => Ok(Value::Layout(c.layout.clone())),
        (Value::Word(w), "width") => w
            .elem()
            .map(|e| Value::Int(e.bits()))
            .ok_or_else(|| cute_core::err!("'{w}' is not an element type")),
        #[cfg(feature = "full")]
        (Value::Policy(p), m) => p
            .members
            .iter()
            .find(|(n, _)| n == m)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                let known: Vec<&str> = p.members.iter().map(|(n, _)| n.as_str()).collect();
                cute_core::err!(
                    "{} has no member '{m}' here (known: {})",
                    p.name,
                    known.join(", ")
                )
            }),
        #[cfg(feature = "full")]
        (Value::Word(Word::Scaled(e)), "DataType") => Ok(Value::Word(Word::Elem(e.data()))),
        #[cfg(feature = "full")]
        (Value::Word(Word::Scaled(e)), "ScaleFactorType") => Ok(Value::Word(Word::Elem(e.sf()))),
        #[cfg(feature = "full")]
        (Value::Collective(c), "DispatchPolicy") => crate::types::policy::of_mainloop(c),
        #[cfg(feature = "full")]
        (Value::Collective(c), m) => crate::ops::collective::member(c, m),
        #[cfg(feature = "full")]
        (Value::Epilogue(e), "DispatchPolicy") => Ok(crate::types::policy::of_epilogue(e)),
        #[cfg(feature = "full")]
        (Value::Epilogue(e), m) => crate::ops::collective::epilogue_member(e, m),
        #[cfg(feature = "full")]
        (Value::Word(Word::Fusion(f)), m) => crate::ops::collective::fusion_member(f, m),
        // C++ `Trait<...>::value` of a value computed here.
        (v @ (Value::Bool(_) | Value::Int(_) | Value::Dyn(_)), "value") => Ok(v.clone()),
        // The member types of a TiledCopy (`typename decltype(tiled_copy)::Tiler_MN{}`).
        #[cfg(feature = "full")]
        (Value::TiledCopy(c), "Tiler_MN") => Ok(match &c.tiler_layouts {
            Some(ls) => Value::Tuple(ls.iter().cloned().map(Value::Layout).collect()),
            None => c.tiler.clone().into(),
        }),
        #[cfg(feature = "full")]
        (Value::TiledCopy(c), "TiledLayout_TV") => Ok(Value::Layout(c.layout_tv.clone())),
        #[cfg(feature = "full")]
        (Value::TiledCopy(c), "TiledNumThr") => Ok(Value::Int(c.layout_tv.mode(0)?.size()?)),
        #[cfg(feature = "full")]
        (Value::TiledCopy(c), "TiledNumVal") => Ok(Value::Int(c.layout_tv.mode(1)?.size()?)),
        // Its atom's, under `Atom*` names (in value units, as Copy_Atom's ValLayout*).
        #[cfg(feature = "full")]
        (Value::TiledCopy(_), "AtomThrID") => crate::ops::atoms::get_trait(v, "ThrID"),
        #[cfg(feature = "full")]
        (Value::TiledCopy(_), "AtomLayoutSrc") => crate::ops::atoms::get_trait(v, "ValLayoutSrc"),
        #[cfg(feature = "full")]
        (Value::TiledCopy(_), "AtomLayoutDst") => crate::ops::atoms::get_trait(v, "ValLayoutDst"),
        #[cfg(feature = "full")]
        (Value::TiledCopy(_), "AtomLayoutRef") => crate::ops::atoms::get_trait(v, "ValLayoutRef"),
        #[cfg(feature = "full")]
        (Value::TiledCopy(_), m @ ("AtomNumThr" | "AtomNumVal")) => {
            let r = crate::ops::atoms::get_trait(v, "ValLayoutRef")?;
            Ok(Value::Int(
                r.to_layout()?
                    .mode(usize::from(m == "AtomNumVal"))?
                    .size()?,
            ))
        }
        // The member types of a TiledMMA: its atom's traits under `Atom*` names (the
        // permutations are a template parameter, not a member: C++ refuses `::PermutationMNK`).
        #[cfg(feature = "full")]
        (Value::TiledMma(_), "AtomShape_MNK") => crate::ops::atoms::get_trait(v, "Shape_MNK"),
        #[cfg(feature = "full")]
        (Value::TiledMma(_), "AtomThrID") => crate::ops::atoms::get_trait(v, "ThrID"),
        #[cfg(feature = "full")]
        (Value::TiledMma(_), "AtomLayoutA_TV") => crate::ops::atoms::get_trait(v, "ALayout"),
        #[cfg(feature = "full")]
        (Value::TiledMma(_), "AtomLayoutB_TV") => crate::ops::atoms::get_trait(v, "BLayout"),
        #[cfg(feature = "full")]
        (Value::TiledMma(_), "AtomLayoutC_TV") => crate::ops::atoms::get_trait(v, "CLayout"),
        #[cfg(feature = "full")]
        (Value::Atom(_) | Value::TiledMma(_) | Value::TiledCopy(_), k)
            if Word::bare(k).is_some() =>
        {
            crate::ops::atoms::get_trait(v, k)
        }
        // A member function of the value is the op of that name (`L.shape()`, `t.layout()`).
        (v, m) => match ops::lookup(m) {
            Some(op) => ops::call_op(op, &[], std::slice::from_ref(v), &[]),
            None => Err(cute_core::err!("{} has no member '{m}'", v.kind())),
        },
    }
}
