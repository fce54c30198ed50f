//! Evaluation of parsed expressions: names, calls through the op table, C++ types,
//! members, applications, static-integer arithmetic.

use crate::ops;
use crate::parse::{strip_ns, BinOp, Expr, Node};
use crate::types;
use crate::value::Value;
use cute_core::error::{arith, Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::Layout;
use cute_core::swizzle::ComposedLayout;
use std::collections::HashMap;

/// Evaluation environment: the bindings made by earlier lines of a script.
#[derive(Default, Debug, Clone)]
pub struct Env {
    vars: HashMap<String, Value>,
    /// The names in the order they were first bound (a kernel report lists objects as the
    /// code declares them).
    order: Vec<String>,
}

impl Env {
    /// Bind `name` to `value`.
    pub fn bind(&mut self, name: &str, value: Value) {
        self.replace(name, value);
    }

    /// Bind `name` to `value`, returning what it was bound to (to undo it with
    /// [`Env::restore`]).
    pub(crate) fn replace(&mut self, name: &str, value: Value) -> Option<Value> {
        let old = self.vars.insert(name.to_string(), value);
        if old.is_none() {
            self.order.push(name.to_string());
        }
        old
    }

    /// Undo a [`Env::replace`]: `name` bound to `old` again, or unbound.
    pub(crate) fn restore(&mut self, name: &str, old: Option<Value>) {
        match old {
            Some(v) => {
                self.vars.insert(name.to_string(), v);
            }
            None => {
                self.vars.remove(name);
                if let Some(k) = self.order.iter().rposition(|n| n == name) {
                    self.order.remove(k);
                }
            }
        }
    }

    /// Look up a binding.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }

    /// The bindings in the order their names were first bound.
    pub fn bindings(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.order
            .iter()
            .filter_map(|n| self.vars.get(n).map(|v| (n.as_str(), v)))
    }
}

pub(crate) fn eval(node: &Node<'_>, env: &Env) -> Result<Value> {
    let v = eval_inner(node, env).map_err(|e| e.or_at(node.col))?;
    v.check_bounds().map_err(|e| e.or_at(node.col))?;
    Ok(v)
}

/// A dotted name whose first segment is bound: `tiled_mma.get_layoutA_TV` is a member of
/// the value `tiled_mma`. Returns the value and the member names.
fn bound_path(name: &str, env: &Env) -> Option<(Value, Vec<String>)> {
    // `T::member` of a bound type (`using T = ...;`) reads like `t.member`.
    let first_end = name.bytes().position(|c| c == b'.' || c == b':')?;
    let v = env.get(&name[..first_end])?;
    let rest = name[first_end..].replace("::", ".");
    let members = rest[1..].split('.').map(String::from).collect();
    Some((v.clone(), members))
}

/// C++ refuses a class template without its arguments as a template argument
/// (`MMA_Traits<SM90_64x64x8_F32TF32TF32_SS_TN>`: it needs `<>`).
fn check_type_args(targs: &[Node]) -> Result<()> {
    for t in targs {
        if let Expr::Name(n) = &t.expr {
            let s = strip_ns(n);
            if crate::types::families::is_class_template(s) {
                return Err(Error::at(
                    t.col,
                    format!("{s} is a class template: give its template arguments ({s}<...>)"),
                ));
            }
        }
    }
    Ok(())
}

fn eval_inner(node: &Node, env: &Env) -> Result<Value> {
    match &node.expr {
        Expr::Int(v) => Ok(Value::Int(*v)),
        Expr::Dyn(v) => Ok(Value::Dyn(*v)),
        Expr::Under => Ok(Value::Under),
        Expr::Tuple(items) => Ok(Value::Tuple(eval_all(items, env)?)),
        Expr::Splat(_) => Err(Error::new(
            "'*' unpacks a tuple only inside a call or a tuple",
        )),
        Expr::Ternary { cond, then, other } => eval_ternary(cond, then, other, env),
        Expr::Index { obj, lo, hi, slice } => eval_index(node, obj, lo, hi, *slice, env),
        Expr::Name(name) => eval_name(name, env),
        Expr::Made(name) => {
            let short = strip_ns(name);
            let needs = crate::types::families::needs_template_args(short);
            if let (None, Some(args)) = (env.get(name), needs) {
                return Err(cute_core::err!(
                    "{short} is a template whose arguments have no defaults: C++ has no {short}{{}} (write {short}{args}{{}})"
                ));
            }
            eval_name(name, env)
        }
        Expr::Layout(s, d) => eval_layout(s, d, env),
        Expr::Call(call) => eval_call(call, env),
        Expr::Template { name, targs, made } => {
            check_type_args(targs)?;
            let targs = eval_all(targs, env)?;
            let v = types::resolve::template(strip_ns(name), &targs)?;
            if *made {
                crate::types::families::check_instance(strip_ns(name), &v)?;
            }
            Ok(v)
        }
        Expr::Apply { f, args } => {
            let fv = match eval(f, env)? {
                // `(L)(c)`: C++ parentheses around the applied value.
                Value::Tuple(mut vs) if vs.len() == 1 => vs.pop().expect("one"),
                v => v,
            };
            let args = eval_all(args, env)?;
            apply(&fv, &args)
        }
        Expr::Member(member) => {
            let crate::parse::MemberExpr { obj, name, call } = &**member;
            let o = eval(obj, env)?;
            match call {
                None => types::resolve::member_type(&o, name),
                Some((args, kwargs)) => {
                    if !kwargs.is_empty() {
                        return Err(cute_core::err!(
                            "{name}: keyword arguments are not allowed in a member call"
                        ));
                    }
                    member_call(&o, name, &eval_all(args, env)?)
                }
            }
        }
        Expr::Binary { op, lhs, rhs } => eval_binary(*op, lhs, rhs, env),
        Expr::Compose(parts) => {
            let vals = eval_all(parts, env)?;
            compose_chain(&vals)
        }
        Expr::PtrDecl { pointee, init } => eval_ptr_decl(pointee, init, env),
        Expr::PtrPrint {
            space,
            bits,
            addr,
            swizzle,
        } => {
            let ptr = cute_core::tensor::Ptr::new(*space, *bits, *addr);
            match swizzle {
                None => Ok(Value::Ptr(ptr)),
                Some(sw) => crate::ops::tensors::swizzle_ptr(ptr, &eval(sw, env)?),
            }
        }
        Expr::DefaultInit(ty) => match eval(ty, env)? {
            Value::Word(crate::words::Word::Elem(k)) => Err(cute_core::err!(
                "a {k} declared without a value has none: give it one (`{k} x = ...;`)"
            )),
            v => Ok(v),
        },
    }
}

/// `c ? a : b` and Python's `a if c else b`.
fn eval_ternary(cond: &Node, then: &Node, other: &Node, env: &Env) -> Result<Value> {
    let c = match eval(cond, env)? {
        Value::Bool(b) => b,
        Value::Compare(c) => c.equal(),
        Value::Int(v) | Value::Dyn(v) => v != 0,
        v => {
            return Err(Error::at(
                cond.col,
                format!(
                    "a condition must be a boolean or an integer, got {}",
                    v.kind()
                ),
            ))
        }
    };
    eval(if c { then } else { other }, env)
}

/// Python's `t[i]` and `t[lo:hi]` of a tuple; a tensor's `t[c]` is its element at `c`.
fn eval_index(
    node: &Node,
    obj: &Node,
    lo: &Option<Box<Node>>,
    hi: &Option<Box<Node>>,
    slice: bool,
    env: &Env,
) -> Result<Value> {
    let o = eval(obj, env)?;
    // CuTeDSL's `t[None, 3]` is C++'s `t(_, 3)`: a tensor's coordinate, not a mode.
    if let (Value::Tensor(_) | Value::Partition(_) | Value::DescTensor(_), false) = (&o, slice) {
        let Some(c) = lo else {
            return Err(Error::at(
                node.col,
                "a tensor's subscript needs a coordinate",
            ));
        };
        return apply(&o, &[eval(c, env)?]);
    }
    let items = match &o {
        Value::Tuple(vs) => vs.clone(),
        v => {
            return Err(Error::at(
                node.col,
                format!(
                    "cannot subscript {} (only tuples; for a mode write get(x, i))",
                    v.kind()
                ),
            ))
        }
    };
    let n = items.len() as i64;
    let at = |node: &Option<Box<Node>>, default: i64| -> Result<i64> {
        match node {
            None => Ok(default),
            Some(nd) => {
                let i =
                    match eval(nd, env)? {
                        Value::Tuple(_) => return Err(Error::at(
                            nd.col,
                            "a tuple takes one integer index (several, `t[a, b]`, index a tensor)",
                        )),
                        v => v.to_int()?,
                    };
                // Python: negative indices count from the end.
                Ok(if i < 0 { i.saturating_add(n) } else { i })
            }
        }
    };
    if slice {
        let (a, b) = (at(lo, 0)?.clamp(0, n), at(hi, n)?.clamp(0, n));
        Ok(Value::Tuple(
            items[a as usize..(b.max(a)) as usize].to_vec(),
        ))
    } else {
        let i = at(lo, 0)?;
        usize::try_from(i)
            .ok()
            .and_then(|i| items.get(i).cloned())
            .ok_or_else(|| {
                cute_core::err!("index {i} is out of range for {} of rank {n}", o.kind())
            })
    }
}

/// `shape:stride`.
fn eval_layout(s: &Node, d: &Node, env: &Env) -> Result<Value> {
    // Fast path: literal int-tuples need no intermediate Values.
    if let (Some(shape), Some(stride)) = (int_tuple_literal(s), int_tuple_literal(d)) {
        return Ok(Value::Layout(Layout::new(shape, stride)?));
    }
    let shape = eval(s, env)?
        .to_int_tuple()
        .map_err(|e| Error::at(s.col, format!("layout shape: {}", e.msg)))?;
    let stride = eval(d, env)?;
    // C++'s print of a layout with basis strides, `(8,4):(1@0,1@1)`, reads back.
    if crate::ops::basis::has_basis(&stride) {
        return crate::ops::basis::make_layout(&shape.into(), &stride);
    }
    let stride = stride
        .to_int_tuple()
        .map_err(|e| Error::at(d.col, format!("layout stride: {}", e.msg)))?;
    Ok(Value::Layout(Layout::new(shape, stride)?))
}

/// `f(args)`, `f<targs>(args)`: a bound value applied, a member path of a bound value, a
/// type's value (applied), or an op of the table.
fn eval_call(call: &crate::parse::CallExpr, env: &Env) -> Result<Value> {
    let crate::parse::CallExpr {
        name,
        targs,
        args,
        kwargs,
    } = call;
    if let Some(f) = env.get(name) {
        if !kwargs.is_empty() || !targs.is_empty() {
            return Err(cute_core::err!(
                "'{name}' is a bound value: apply it to a coordinate, e.g. {name}(3)"
            ));
        }
        return apply(f, &eval_all(args, env)?);
    }
    #[cfg(feature = "full")]
    if strip_ns(name) == "explain" {
        return eval_explain(call, env);
    }
    // A spelling the op table lists with its namespace (CuTeDSL's
    // `cute.recast_layout`, whose arguments differ from C++'s) wins over the name
    // without it, however the module is reached (`cutlass.cute.recast_layout`).
    let short = strip_ns(name);
    let op = ops::lookup(name)
        .or_else(|| {
            let dsl = name.contains(".cute.");
            dsl.then(|| ops::lookup(&format!("cute.{short}"))).flatten()
        })
        .or_else(|| ops::lookup(short));
    let bound = bound_path(name, env);
    // An unknown function is the error, not the first unknown name among its
    // arguments (`make_tensor(nullptr, ...)` names make_tensor).
    if op.is_none()
        && bound.is_none()
        && targs.is_empty()
        && (!args.is_empty() || !kwargs.is_empty())
    {
        return Err(ops::unknown_function(short));
    }
    let args_v = eval_all(args, env)?;
    if let Some((obj, path)) = bound {
        let mut cur = obj;
        for (k, m) in path.iter().enumerate() {
            cur = if k + 1 == path.len() {
                member_call(&cur, m, &args_v)?
            } else {
                types::resolve::member_type(&cur, m)?
            };
        }
        return Ok(cur);
    }
    check_type_args(targs)?;
    let targs_v = eval_all(targs, env)?;
    let mut kw = Vec::with_capacity(kwargs.len());
    for (k, n) in kwargs {
        kw.push((*k, eval(n, env)?, n.col));
    }
    // `Int<8>()`, `Layout<...>()`: a type's value-initialisation; `Sw<3,4,3>(x)`:
    // a type's value applied.
    let takes_targs = op.is_some_and(|o| o.targs != ops::Targs::No);
    if op.is_none() && (!args.is_empty() || !kwargs.is_empty()) {
        // Not a function: a type applied (`Sw<3,4,3>(x)`) or an unknown name.
        if targs.is_empty() {
            return Err(ops::unknown_function(short));
        }
    }
    if kwargs.is_empty() && (op.is_none() || (!targs.is_empty() && !takes_targs)) {
        let v = types::resolve::template(short, &targs_v)?;
        // A value of the type is made: the op struct's own checks apply.
        crate::types::families::check_instance(short, &v)?;
        return if args.is_empty() {
            Ok(v)
        } else {
            apply(&v, &args_v)
        };
    }
    match op {
        Some(op) => ops::call_op(op, &targs_v, &args_v, &kw),
        None => Err(ops::unknown_function(short)),
    }
}

/// `explain(op(args...))`: the call's operands evaluated, and its derivation; the argument
/// must be written as the call (its value alone does not say how it was made).
#[cfg(feature = "full")]
fn eval_explain(call: &crate::parse::CallExpr, env: &Env) -> Result<Value> {
    let inner = match (&call.args[..], call.targs.is_empty() && call.kwargs.is_empty()) {
        ([Node {
            expr: Expr::Call(c),
            ..
        }], true) => c,
        _ => {
            return Err(cute_core::err!(
                "explain takes one call of an algebra op, written out: explain(logical_divide(A, B)) (it derives {})",
                ops::explain::EXPLAINED.join(", ")
            ))
        }
    };
    if !inner.targs.is_empty() || !inner.kwargs.is_empty() {
        return Err(Error::new(
            "explain: write the call with positional arguments only (explain(composition(A, B)))",
        ));
    }
    let name = ops::lookup(strip_ns(&inner.name)).map_or(strip_ns(&inner.name), |o| o.name);
    let args = eval_all(&inner.args, env)?;
    Ok(Value::Explain(Box::new(ops::explain::explain_call(
        name, &args,
    )?)))
}

/// `a OP b` of integers (and booleans), C++'s pointer arithmetic, and `==` of any values.
fn eval_binary(op: BinOp, lhs: &Node, rhs: &Node, env: &Env) -> Result<Value> {
    let (a, b) = (eval(lhs, env)?, eval(rhs, env)?);
    match op {
        // C++'s `==` compares values, static or not.
        BinOp::Eq => return Ok(Value::Bool(a.to_static() == b.to_static())),
        BinOp::Ne => return Ok(Value::Bool(a.to_static() != b.to_static())),
        _ => {}
    }
    if let Some(r) = pointer_arith(op, &a, &b) {
        return r;
    }
    let basis = match op {
        BinOp::Add => crate::ops::basis::add(&a, &b),
        BinOp::Mul => crate::ops::basis::mul(&a, &b),
        BinOp::At => Some(crate::ops::basis::at(&a, &b)),
        _ => None,
    };
    if let Some(r) = basis {
        return r.map_err(|e| Error::at(lhs.col, e.msg));
    }
    let result_static = static_result(op, &a, &b);
    let int_of = |v: &Value, col: usize| match v {
        Value::Bool(b) => Ok(i64::from(*b)),
        // `(a == b)` in the spec's dialect is a 1-tuple: parentheses around a scalar.
        Value::Tuple(vs) if vs.len() == 1 && matches!(vs[0], Value::Bool(_)) => {
            Ok(i64::from(vs[0] == Value::Bool(true)))
        }
        v => v.to_int().map_err(|e| Error::at(col, e.msg)),
    };
    let (x, y) = (int_of(&a, lhs.col)?, int_of(&b, rhs.col)?);
    let shift = |y: i64| {
        u32::try_from(y)
            .ok()
            .filter(|s| *s < 63)
            .ok_or_else(|| Error::at(rhs.col, format!("shift by {y} is out of range")))
    };
    let out = match op {
        BinOp::Add => Value::Int(arith::add(x, y)?),
        BinOp::Sub => Value::Int(arith::sub(x, y)?),
        BinOp::Mul => Value::Int(arith::mul(x, y)?),
        BinOp::Div => Value::Int(arith::div(x, y)?),
        BinOp::Rem => Value::Int(arith::rem(x, y)?),
        BinOp::BitAnd => Value::Int(x & y),
        BinOp::BitXor => Value::Int(x ^ y),
        BinOp::BitOr => Value::Int(x | y),
        BinOp::Shl => Value::Int(
            x.checked_shl(shift(y)?)
                .filter(|v| v >> shift(y).unwrap_or(0) == x)
                .ok_or_else(|| cute_core::err!("integer overflow: {x} << {y}"))?,
        ),
        BinOp::Shr => Value::Int(x >> shift(y)?),
        BinOp::FloorDiv => Value::Int(
            arith::div(x, y)?
                .checked_sub(i64::from(y != 0 && x % y != 0 && ((x < 0) != (y < 0))))
                .unwrap_or(i64::MIN),
        ),
        BinOp::And => Value::Bool(x != 0 && y != 0),
        BinOp::Or => Value::Bool(x != 0 || y != 0),
        BinOp::Not => Value::Bool(x == 0),
        BinOp::At => return Err(Error::at(lhs.col, "k@i takes an integer and a basis index")),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Ge => Value::Bool(x >= y),
        // Compared above, before the integers.
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
    };
    Ok(match out {
        Value::Int(v) if !result_static => Value::Dyn(v),
        v => v,
    })
}

/// `T const* p = init;`: a raw pointer to the pointee type.
fn eval_ptr_decl(pointee: &Node, init: &Option<Box<Node>>, env: &Env) -> Result<Value> {
    if matches!(&pointee.expr, Expr::Name(n) if n == "void") {
        return Err(Error::at(
            pointee.col,
            "a void pointer has no element type: declare it with one (half_t const* A)",
        ));
    }
    let ty = eval(pointee, env)?;
    let init = init.as_ref().map(|n| eval(n, env)).transpose()?;
    crate::ops::tensors::raw_ptr(&ty, init.as_ref())
}

/// C++ pointer arithmetic in elements: `p + n` of any pointer, `n + p` and `p - n` of a
/// raw one (CuTe's tagged pointers define only `operator+(n)`); `None` when neither
/// operand is a pointer.
fn pointer_arith(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value>> {
    use cute_core::tensor::Space;
    let moved = |p: &cute_core::tensor::Ptr, n: &Value, neg: bool| -> Result<Value> {
        let n = n.to_int()?;
        let n = if neg { arith::sub(0, n)? } else { n };
        Ok(Value::Ptr(p.offset(n)?))
    };
    match (op, a, b) {
        (BinOp::Add, Value::Iter(i), n) if !matches!(n, Value::Ptr(_) | Value::Iter(_)) => Some(
            n.to_int()
                .and_then(|n| Ok(Value::Iter(Box::new(i.offset(n)?)))),
        ),
        (_, Value::Iter(_), _) | (_, _, Value::Iter(_)) => Some(Err(Error::new(
            "an iterator takes `it + n` (n elements) here",
        ))),
        (BinOp::Add, Value::Ptr(p), n) if !matches!(n, Value::Ptr(_)) => Some(moved(p, n, false)),
        (BinOp::Add, n, Value::Ptr(p))
            if p.space == Space::Generic && !matches!(n, Value::Ptr(_)) =>
        {
            Some(moved(p, n, false))
        }
        (BinOp::Sub, Value::Ptr(p), n)
            if p.space == Space::Generic && !matches!(n, Value::Ptr(_)) =>
        {
            Some(moved(p, n, true))
        }
        (_, Value::Ptr(p), _) | (_, _, Value::Ptr(p)) if p.space != Space::Generic => {
            Some(Err(cute_core::err!(
                "C++ defines only `p + n` for a {} (n elements)",
                p.space.name()
            )))
        }
        (_, Value::Ptr(_), _) | (_, _, Value::Ptr(_)) => Some(Err(Error::new(
            "a raw pointer takes `p + n`, `n + p` and `p - n` (n elements) here",
        ))),
        _ => None,
    }
}

/// Whether C++'s `a OP b` is a static integer: both operands static, or one of the
/// `integral_constant` special cases whose result is `_0` whatever the other operand.
fn static_result(op: BinOp, a: &Value, b: &Value) -> bool {
    let is = |v: &Value, n: i64| matches!(v, Value::Int(x) if *x == n);
    let fixed = |v: &Value| !matches!(v, Value::Dyn(_));
    match op {
        BinOp::Mul | BinOp::BitAnd if is(a, 0) || is(b, 0) => true,
        BinOp::Div if is(a, 0) => true,
        BinOp::Rem if is(a, 0) || is(b, 1) || is(b, -1) => true,
        _ => fixed(a) && fixed(b),
    }
}

/// `x.f(args)`: member functions and CuTeDSL methods are ops with `x` first; the
/// composed layout's parts are C++ accessors.
fn member_call(obj: &Value, name: &str, args: &[Value]) -> Result<Value> {
    if args.is_empty() {
        if let Ok(v) = types::resolve::member_type(obj, name) {
            return Ok(v);
        }
    }
    let mut all = Vec::with_capacity(args.len() + 1);
    all.push(obj.clone());
    all.extend_from_slice(args);
    match ops::lookup(name) {
        Some(op) => ops::call_op(op, &[], &all, &[]),
        None => Err(ops::unknown_function(name)),
    }
}

/// A literal int-tuple (`8`, `(2,(3,-4))`), converted without evaluation.
fn int_tuple_literal(node: &Node<'_>) -> Option<IntTuple> {
    match &node.expr {
        Expr::Int(v) => Some(IntTuple::Int(*v)),
        Expr::Dyn(v) => Some(IntTuple::Dyn(*v)),
        Expr::Tuple(items) => items
            .iter()
            .map(int_tuple_literal)
            .collect::<Option<Vec<_>>>()
            .map(IntTuple::Tuple),
        _ => None,
    }
}

fn eval_all(nodes: &[Node], env: &Env) -> Result<Vec<Value>> {
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        match &n.expr {
            Expr::Splat(inner) => match eval(inner, env)? {
                Value::Tuple(vs) => out.extend(vs),
                v => out.push(v),
            },
            _ => out.push(eval(n, env)?),
        }
    }
    Ok(out)
}

fn eval_name(name: &str, env: &Env) -> Result<Value> {
    // A CuTeDSL kernel class's attribute (`self.mma_tiler`) is the block's name: its
    // methods' lines paste as the set-up they are.
    let name = match name.strip_prefix("self.") {
        Some(attr) if !attr.is_empty() => attr,
        _ => name,
    };
    if let Some(v) = env.get(name) {
        return Ok(v.clone());
    }
    if let Some((obj, path)) = bound_path(name, env) {
        let mut cur = obj;
        for m in path {
            cur = types::resolve::member_type(&cur, &m)?;
        }
        return Ok(cur);
    }
    // CUDA's built-in indices read 0 (thread 0 of block 0, as a host build of the kernel's
    // lines prints them) until a line assigns them (`threadIdx.x = 37;`).
    if let Some((obj, m)) = name.split_once('.') {
        if matches!(obj, "threadIdx" | "blockIdx") && matches!(m, "x" | "y" | "z") {
            return Ok(Value::Dyn(0));
        }
    }
    let short = strip_ns(name);
    if let Some(v) = types::names::name_value(short) {
        return v;
    }
    if ops::lookup(short).is_some() {
        return Err(cute_core::err!(
            "'{short}' is a function: call it with arguments, e.g. {short}(...)"
        ));
    }
    if cute_core::atom::is_atom_like_name(short) {
        return Err(types::names::atom_value(short)
            .err()
            .unwrap_or_else(|| cute_core::err!("unknown name '{short}'")));
    }
    Err(unknown_name(short, env))
}

/// An unknown name's error, with the names it could mean: the script's own, the
/// functions, the types and keywords, the atoms.
fn unknown_name(name: &str, env: &Env) -> Error {
    // The first picture's light build draws no error: the name lists are the full build's.
    if !cfg!(feature = "full") {
        return cute_core::err!("unknown name '{name}'");
    }
    let tables = ops::function_names()
        .chain(crate::types::table::TYPES.iter().map(|t| t.name))
        .chain(crate::types::names::KEYWORDS.iter().copied())
        .chain(cute_core::atom::atom_names());
    let mut known: Vec<&str> = env.bindings().map(|(n, _)| n).collect();
    for n in tables {
        known.push(n);
    }
    let near = cute_core::error::nearest_names(name, known, 3);
    if near.is_empty() {
        cute_core::err!("unknown name '{name}'")
    } else {
        cute_core::err!("unknown name '{name}' (did you mean {}?)", near.join(", "))
    }
}

/// `a o b` is `composition(a, b)`; `Sw o OFFSET o L` is a composed layout.
fn compose_chain(vals: &[Value]) -> Result<Value> {
    // A composed layout's offset and an applied offset are values (C++ keeps no kind there).
    let plain: Vec<Value> = vals.iter().map(Value::to_static).collect();
    match plain.as_slice() {
        [Value::Swizzle(sw), Value::Int(off), Value::Layout(l)] => {
            return Ok(Value::Composed(ComposedLayout::new(*sw, *off, l.clone())));
        }
        [Value::Swizzle(sw), Value::Offset(off), Value::Layout(l)] => {
            return Ok(Value::Composed(ComposedLayout {
                swizzle: *sw,
                offset: *off,
                layout: l.clone(),
            }));
        }
        #[cfg(feature = "full")]
        // C++'s print of a counting tensor, `ArithTuple(0,0) o (8,4):(1@0,1@1)`.
        [Value::ArithTuple(start), Value::BasisLayout(l)] => {
            return Ok(Value::Tensor(Box::new(
                cute_core::tensor::Tensor::counting(&start.0, l)?,
            )));
        }
        // `Sw o 0 o L(i)`: application binds tighter, so this is the swizzle of an offset.
        [Value::Swizzle(sw), Value::Int(off), Value::Int(x)] => {
            return Ok(Value::Int(sw.apply(arith::add(*off, *x)?)));
        }
        #[cfg(feature = "full")]
        // C++'s print of a tensor, `gmem_ptr[16b](0x1000) o (8,4):(1,8)`: its pointer and
        // its layout (composed, `... o Sw<3,4,3> o 0 o L`).
        [Value::Ptr(_), rest @ ..] if !rest.is_empty() => {
            let layout = compose_chain(&vals[1..])?;
            return crate::ops::tensors::make_tensor(&[vals[0].clone(), layout]);
        }
        _ => {}
    }
    // Right-associative: a o b o c = a o (b o c) (the same function either way).
    let mut acc = vals.last().expect("non-empty").clone();
    for v in vals[..vals.len() - 1].iter().rev() {
        acc = ops::algebra::composition(v, &acc)?;
    }
    Ok(acc)
}

/// For each integer of the coordinate `args` (in order, `_` skipped): whether it is a
/// run-time one.
fn dynamic_coords(args: &[Value]) -> Vec<bool> {
    match args {
        [one] => one.dynamic_leaves(),
        _ => Value::Tuple(args.to_vec()).dynamic_leaves(),
    }
}

/// Apply a value to arguments: evaluation, slicing, swizzling.
pub(crate) fn apply(f: &Value, args: &[Value]) -> Result<Value> {
    if args.is_empty() {
        return Err(cute_core::err!("cannot apply {} to no arguments", f.kind()));
    }
    // Coordinates are values: a run-time coordinate indexes as a static one does.
    let coord_val = if args.len() == 1 {
        args[0].to_static()
    } else {
        Value::Tuple(args.iter().map(Value::to_static).collect())
    };
    match f {
        Value::Tensor(_) | Value::Partition(_) => {
            let t = crate::ops::tensors::tensor(f)?;
            let c = coord_val.to_coord()?;
            // A counting tensor's element is a coordinate (`make_identity_tensor(s)(3, 4)`).
            if !c.has_underscore() {
                match t.coordinate_at(&coord_val.to_int_tuple()?)? {
                    Some(x @ IntTuple::Tuple(_)) => {
                        return Ok(Value::ArithTuple(cute_core::basis::ArithTuple(x)))
                    }
                    // A counting iterator of integers counts integers.
                    Some(x) => return Ok(Value::Int(x.as_int().unwrap_or(0))),
                    None => {}
                }
            }
            Ok(Value::Tensor(Box::new(
                t.slice_dynamic(&c, &dynamic_coords(args))?,
            )))
        }
        // A descriptor fragment's element is the descriptor of that MMA block.
        Value::DescTensor(t) => {
            let c = coord_val.to_coord()?;
            if c.has_underscore() {
                Ok(Value::DescTensor(Box::new(t.slice(&c)?)))
            } else {
                Ok(Value::Descriptor(Box::new(
                    t.at(&coord_val.to_int_tuple()?)?,
                )))
            }
        }
        Value::Layout(l) => {
            let c = coord_val.to_coord()?;
            if c.has_underscore() {
                Ok(Value::Layout(l.slice(&c)?))
            } else {
                let c = coord_val.to_int_tuple()?;
                Ok(Value::Int(match c {
                    IntTuple::Int(i) => l.call_index(i)?,
                    t => l.call_coord(&t)?,
                }))
            }
        }
        Value::Composed(cl) => {
            let c = coord_val.to_coord()?;
            if c.has_underscore() {
                let kinds = Value::Tuple(args.to_vec()).dynamic_leaves();
                Ok(cl.slice_dynamic(&c, &kinds)?.into())
            } else {
                let c = coord_val.to_int_tuple()?;
                Ok(Value::Int(match c {
                    IntTuple::Int(i) => cl.call_index(i)?,
                    t => cl.call_coord(&t)?,
                }))
            }
        }
        Value::Composition(cl) => match coord_val.to_int_tuple()? {
            IntTuple::Int(i) => Ok(Value::Int(cl.call_index(i)?)),
            t => Ok(Value::Int(cl.call_coord(&t)?)),
        },
        Value::BasisLayout(l) => crate::ops::basis::call(l, &coord_val),
        Value::Swizzle(sw) => match &coord_val {
            Value::Int(x) => Ok(Value::Int(sw.apply(*x))),
            _ => Err(Error::new("a swizzle is applied to one integer offset")),
        },
        other => Err(cute_core::err!(
            "cannot apply {} (only layouts, composed layouts, tensors and swizzles can be applied)",
            other.kind()
        )),
    }
}
