//! `explain(op(...))`: an algebra call's derivation as CuTe computes it
//! (`cute_core::explain`), its operands converted as the op's row converts them.

use crate::ops::args::as_layout;
use crate::value::{Explained, Value};
use cute_core::error::Result;
use cute_core::explain::{self as ex, Explanation};

/// The ops `explain` derives, by CuTe name.
pub const EXPLAINED: &[&str] = &[
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "coalesce",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
];

/// The derivation of `name(args...)`, the call already evaluated to its operands.
///
/// ```
/// use cute_lang::Value;
/// let a = cute_lang::eval_line("(4,2,3):(2,1,8)").unwrap();
/// let b = cute_lang::eval_line("4:2").unwrap();
/// let e = cute_lang::explain_call("logical_divide", &[a, b]).unwrap();
/// assert_eq!(e.explanation.lines.last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn explain_call(name: &str, args: &[Value]) -> Result<Explained> {
    let explanation = derive(name, args)?;
    Ok(Explained {
        name: name.to_string(),
        args: args.to_vec(),
        explanation,
    })
}

fn derive(name: &str, a: &[Value]) -> Result<Explanation> {
    let arity = |lo: usize, hi: usize| -> Result<()> {
        if (lo..=hi).contains(&a.len()) {
            Ok(())
        } else {
            Err(cute_core::err!(
                "explain: {name} takes {lo}{} arguments, got {}",
                if hi > lo {
                    format!(" or {hi}")
                } else {
                    String::new()
                },
                a.len()
            ))
        }
    };
    let opt_tuple = |i: usize| a.get(i).map(Value::to_int_tuple).transpose();
    match name {
        "composition" => {
            arity(2, 2)?;
            match &a[1] {
                Value::Layout(b) => ex::explain_composition(&as_layout(&a[0])?, b),
                b => ex::explain_composition_tiler(&as_layout(&a[0])?, &b.to_tiler()?),
            }
        }
        "complement" => {
            arity(1, 2)?;
            ex::explain_complement(&as_layout(&a[0])?, opt_tuple(1)?.as_ref())
        }
        "coalesce" => {
            arity(1, 2)?;
            ex::explain_coalesce(&as_layout(&a[0])?, opt_tuple(1)?.as_ref())
        }
        "right_inverse" | "left_inverse" => {
            arity(1, 1)?;
            let l = as_layout(&a[0])?;
            if name == "right_inverse" {
                ex::explain_right_inverse(&l)
            } else {
                ex::explain_left_inverse(&l)
            }
        }
        "blocked_product" | "raked_product" => {
            arity(2, 2)?;
            let (x, y) = (as_layout(&a[0])?, as_layout(&a[1])?);
            if name == "blocked_product" {
                ex::explain_blocked_product(&x, &y)
            } else {
                ex::explain_raked_product(&x, &y)
            }
        }
        _ => {
            let f = match name {
                "logical_divide" => ex::explain_logical_divide,
                "zipped_divide" => ex::explain_zipped_divide,
                "tiled_divide" => ex::explain_tiled_divide,
                "flat_divide" => ex::explain_flat_divide,
                "logical_product" => ex::explain_logical_product,
                "zipped_product" => ex::explain_zipped_product,
                "tiled_product" => ex::explain_tiled_product,
                "flat_product" => ex::explain_flat_product,
                _ => {
                    return Err(cute_core::err!(
                        "explain derives a call of {}; {name} is not one",
                        EXPLAINED.join(", ")
                    ))
                }
            };
            arity(2, 2)?;
            f(&as_layout(&a[0])?, &a[1].to_tiler()?)
        }
    }
}
