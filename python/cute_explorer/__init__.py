"""CuTe Layout Explorer for Python: NVIDIA CuTe's layout algebra, exactly as CuTe C++
computes it, and pictures of it in Jupyter.

    >>> import cute_explorer as cx
    >>> str(cx.evaluate("composition((4,8):(8,1), (2,4):(4,1))"))
    '(2,4):(8,2)'
    >>> cx.size("(4,8):(8,1)")
    32

`evaluate(text)` takes anything the language accepts (a line, or a pasted C++ or CuTeDSL
block); every function of its op table is a Python function here with its CuTe name
(`composition`, `logical_divide`, `make_tiled_mma`, `bank_conflicts`, `coalescing`, ...).
Arguments are values, expression text, ints and tuples, pycute / tensor-layouts objects, or
what CuTeDSL prints (`S<3,4,3> o 0 o (8,64):(64,1)`). A value prints as `render --print`
prints it and draws itself in a notebook (`_repr_svg_`, `_repr_html_` with a hover
inspector); `v.svg(view=..., labels=...)`, `v.png(scale)`, `v.save(path)` (.svg, .png, or
.tex for `v.latex()`, CuTe's print_latex). As in C++ and pycute, `L(coord)` is the offset,
`L.shape` / `L.stride` / `len(L)` / `L[i]` are shape, stride, rank and mode i, and `==`
compares values. `explain(cx.logical_divide, A, B)` derives an algebra call step by step;
`functionally_equal(A, B)` is true or says where A and B differ. Errors raise `CuteError`
(`.message`, `.column`); a drawing option that is not one raises `OptionError`, a
`CuteError` and a `ValueError`.
"""
import builtins as _builtins
import keyword as _keyword
import operator as _operator
import os as _os
import re as _re

from ._native import (EXPLAINED, CuteError, OptionError, Value, __version__, cell_keys, op_table,
                      print_script)
from ._native import call as _call
from ._native import evaluate as _evaluate
from ._native import explain as _explain
from ._native import report as _report
from ._native import run_cli

__all__ = ["EXPLAINED", "CuteError", "OptionError", "Report", "Value", "evaluate", "explain", "op_table",
           "print_script", "report", "run_cli", "__version__"]


def evaluate(text):
    """Evaluate a line or a pasted block; the value of its last statement."""
    # Text without CuTeDSL's `S<` goes straight in (to_text's checks cost a call).
    if text.__class__ is str and "S<" not in text:
        return _evaluate(text)
    return _evaluate(to_text(text))


def explain(op, *args):
    """The derivation of an algebra call as CuTe computes it, step by step: the language's
    `explain(op(...))`. Spell the call as

        explain(cx.logical_divide, A, B)        # the op's function (or its name) and operands
        explain("logical_divide", A, B)
        explain(cx.logical_divide(A, B))        # the value a call of the op made
        explain("logical_divide((4,2,3):(2,1,8), 4:2)")   # the call's text

    Operands are what the op functions take. `str(e)` is the derivation (the call, each
    step, `=> result` last), `e.lines` its lines, `e.result` the resulting layout; it draws
    as the algebra view with the steps under it. The ops it derives are `EXPLAINED`'s."""
    if isinstance(op, str) and not args and "(" in op:
        return evaluate(f"explain({to_text(op)})")
    if not isinstance(op, (str, Value)):
        name = getattr(op, "_cute_name", None)
        if name is None:
            raise TypeError(
                f"explain takes an op (cx.logical_divide or 'logical_divide') and its operands, "
                f"a value a call made, or the call's text; got a {type(op).__name__}")
        op = name
    return _explain(op, list(args))


class Report:
    """A whole kernel's configuration checked at once (`report(text)`): every smem buffer,
    copy and MMA with a verdict and the number behind it. `str(r)` and the notebook show the
    Markdown `render --report` prints; `r.data` is its JSON as Python dicts and lists;
    `r.verdict` is `ok`, `warn` or `fail`; `r.sections` the sections."""

    def __init__(self, markdown, data):
        self.markdown = markdown
        self.data = data

    @property
    def verdict(self):
        return self.data["verdict"]

    @property
    def sections(self):
        return self.data["sections"]

    def __str__(self):
        return self.markdown

    def __repr__(self):
        return f"<Report {self.data['arch']}: {self.verdict}, {len(self.sections)} sections>"

    def _repr_markdown_(self):
        return self.markdown


def report(text):
    """Check a pasted mainloop configuration (C++ host set-up, a collective's type list):
    the `Report` of its smem budget, copies, MMAs, descriptors and TMEM. Raises `CuteError`
    naming what is missing or wrong."""
    import json

    markdown, data = _report(to_text(text))
    return Report(markdown, json.loads(data))


def _fmt(x):
    """A Python int or (nested) tuple as the language writes it: `(2,(3,4))`."""
    if isinstance(x, bool):
        raise CuteError(f"expected an int or a tuple of ints, got {x!r}")
    if _is_int(x):
        try:
            return str(_operator.index(x))
        except TypeError:  # a numpy array that is not one integer
            raise CuteError(f"cannot pass {x!r}: expected an int or a tuple of ints") from None
    if isinstance(x, (tuple, list)):
        return "(" + ",".join(_fmt(e) for e in x) + ")"
    # pycute / tensor-layouts shapes are tuples; anything else is spelled by its str.
    return to_text(x)


def _is_int(x):
    """An int, or an integer of another library (numpy's int64, ...): what `operator.index`
    takes. A 0-d numpy array has `__index__` too, and passes as its integer."""
    return isinstance(x, int) or (hasattr(type(x), "__index__") and not isinstance(x, Value))


_DSL_SWIZZLE = _re.compile(r"\bS<")


def to_text(x):
    """The language's spelling of a Python object: ints and tuples, pycute's Layout,
    Swizzle and ComposedLayout, tensor-layouts' layouts (anything with `shape` and
    `stride`), what CuTeDSL prints (`S<3,4,3> o 0 o ...`), and expression text."""
    if isinstance(x, Value):
        raise TypeError("a Value is passed as itself, not as text")
    if isinstance(x, str):
        # CuTeDSL prints a swizzle S<B,M,S>; the language (and C++) write Sw<B,M,S>. The
        # regex (a Unicode word boundary) costs microseconds: only where it can match.
        return _DSL_SWIZZLE.sub("Sw<", x) if "S<" in x else x
    if isinstance(x, bool):
        raise CuteError(f"cannot pass {x!r}: expected a value, an int, a tuple or expression text")
    if isinstance(x, (tuple, list)) or _is_int(x):
        return _fmt(x)
    # pycute ComposedLayout(layoutB, offset, layoutA) is layoutB o offset o layoutA.
    if all(hasattr(x, a) for a in ("layoutB", "offset", "layoutA")):
        return f"{to_text(x.layoutB)} o {_fmt(x.offset)} o {to_text(x.layoutA)}"
    # tensor-layouts ComposedLayout(outer, inner, offset) prints outer o offset o inner.
    if all(hasattr(x, a) for a in ("outer", "offset", "inner")):
        return f"{to_text(x.outer)} o {_fmt(x.offset)} o {to_text(x.inner)}"
    # pycute Swizzle(bits, base, shift).
    if all(hasattr(x, a) for a in ("bits", "base", "shift")):
        return f"Sw<{int(x.bits)},{int(x.base)},{int(x.shift)}>"
    if hasattr(x, "shape") and hasattr(x, "stride"):
        shape, stride = x.shape, x.stride
        if callable(shape):
            shape, stride = shape(), stride()
        return f"{_fmt(shape)}:{_fmt(stride)}"
    raise CuteError(
        f"cannot pass a {type(x).__name__}: expected a cute_explorer value, an int, a tuple, "
        "expression text, or a pycute / tensor-layouts layout"
    )


def _make(name, row):
    def op(*args, **kwargs):
        # Ints, tuples of ints and booleans come back as Python data, the rest as values.
        return _call(name, list(args), list(kwargs.items()))

    op.__name__ = op.__qualname__ = _py_name(name)
    op._cute_name = name  # explain(cx.logical_divide, A, B) names the op by it
    kw = f" Keyword arguments: {', '.join(row['kwargs'])}." if row["kwargs"] else ""
    op.__doc__ = f"{name}{row['params']}: {row['meaning']}.{kw}"
    return op


def _py_name(name):
    """The Python name of an op: its last `::`/`.` segment."""
    return _re.split(r"::|\.", name)[-1]


def _install():
    # Every op of the table, by its CuTe name and its other spellings that are Python
    # identifiers (the table is the list: nothing here can drift from it).
    seen = set(globals())
    for row in op_table():
        for spelling in [row["name"], *row["spellings"]]:
            py = _py_name(spelling)
            # Python's own names (`tuple`, `max`, `print`) keep their meaning.
            if (not py.isidentifier() or _keyword.iskeyword(py) or py in seen
                    or hasattr(_builtins, py)):
                continue
            globals()[py] = _make(row["name"], row)
            __all__.append(py)
            seen.add(py)


_install()

