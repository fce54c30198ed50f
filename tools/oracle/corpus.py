#!/usr/bin/env python3
"""Regenerate a {"op","expr","expect"} case corpus from the real CuTe C++ headers.

Reads the expressions ("op" and "expr"; any "expect" is ignored) of an input jsonl
(default testdata/cute-cases.jsonl, or the committed output file when that is
absent), parses each expression of the project's
expression language (docs/contract.md, docs/expressions.md), translates it
into a C++ expression built ONLY from static integers (Int<N>{}), compiles the probes in
batches against the CuTe oracle (see tools/oracle/setup.sh) and records
what C++ prints, with the `_` of static integers removed.  A case that g++ refuses (isolated
by gen.py's Oracle: the compiler's line numbers, then single-case compiles) is "error".

If an input line has a "pycute" field, it is recomputed with the oracle's pycute (the
Python model inside PyPI's nvidia-cutlass wheel) and kept only where pycute's printed
result differs from C++'s (pycute printed like CuTe: no spaces, 1-tuples as `(8)`).

Output: one {"op","expr","expect"[,"pycute"]} line per input line, in the input order
(default testdata/cute-cases.jsonl).  See README.md ("Corpus oracle").

The value model (Lay, Sw, Comp, U), the C++ spelling of values (gen.cpp), the batching and
error isolation (gen.Oracle) and the print conversion (gen.convert) are gen.py's.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402  (value model, cpp(), Oracle, convert)

REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_OUT = os.path.join(REPO, "testdata", "cute-cases.jsonl")
# The expression list: the shared reference corpus when present, else the committed copy
# (regenerating it in place: only "op"/"expr"/"pycute"-presence are read from the input).
SHARED_IN = "testdata/cute-cases.jsonl"
DEFAULT_IN = SHARED_IN if os.path.exists(SHARED_IN) else DEFAULT_OUT

Lay, Sw, Comp, U = gen.Lay, gen.Sw, gen.Comp, gen.U


# ----------------------------------------------------------------------------
# AST: python int / tuple / gen.U / gen.Lay / gen.Sw / gen.Comp for values, plus
# calls and postfix applications.
# ----------------------------------------------------------------------------
class Call:
    def __init__(self, name, args):
        self.name, self.args = name, args


class Apply:
    """Postfix application `X(a)` / `X(a, b, ...)`."""

    def __init__(self, target, args):
        self.target, self.args = target, args


class Composed:
    """`F o O o L` with arbitrary sub-expressions (gen.Comp is the all-literal case)."""

    def __init__(self, outer, off, inner):
        self.outer, self.off, self.inner = outer, off, inner


class ParseError(Exception):
    pass


TOKEN = re.compile(r"\s*(?:(Sw<\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*>)|(-?\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


def tokenize(s):
    toks, pos = [], 0
    s = s.rstrip()
    while pos < len(s):
        m = TOKEN.match(s, pos)
        if not m:
            raise ParseError("bad input at %d" % pos)
        pos = m.end()
        if m.group(1):
            b, mm, sh = (int(x) for x in re.findall(r"-?\d+", m.group(1)))
            toks.append(("sw", (b, mm, sh)))
        elif m.group(2):
            toks.append(("int", int(m.group(2))))
        elif m.group(3):
            toks.append(("name", m.group(3)))
        elif m.group(4).strip():
            toks.append(("p", m.group(4)))
    return toks


class Parser:
    """expr := term ['o' term 'o' term];  term := primary ['(' args ')']*;
    primary := INT | '_' | Sw<B,M,S> | NAME '(' args ')' | '(' items ')' ;
    a primary that is an int or a tuple may be followed by ':' (int | tuple): a layout."""

    def __init__(self, text):
        self.t = tokenize(text)
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else (None, None)

    def eat(self, kind, val=None):
        tk = self.peek()
        if tk[0] != kind or (val is not None and tk[1] != val):
            raise ParseError("expected %s %r at token %d, got %r" % (kind, val, self.i, tk))
        self.i += 1
        return tk[1]

    def parse(self):
        e = self.expr()
        if self.i != len(self.t):
            raise ParseError("trailing input at token %d" % self.i)
        return e

    def expr(self):
        a = self.term()
        if self.peek() == ("name", "o"):
            self.eat("name", "o")
            off = self.term()
            self.eat("name", "o")
            inner = self.term()
            if isinstance(a, Sw) and isinstance(off, int) and isinstance(inner, Lay):
                return Comp(a, inner, "o") if off == 0 else Composed(a, off, inner)
            return Composed(a, off, inner)
        return a

    def term(self):
        a = self.primary()
        while self.peek() == ("p", "("):
            a = Apply(a, self.args())
        return a

    def args(self):
        self.eat("p", "(")
        xs = []
        if self.peek() == ("p", ")"):
            self.eat("p", ")")
            return xs
        while True:
            xs.append(self.expr())
            if self.peek() == ("p", ")"):
                self.eat("p", ")")
                return xs
            self.eat("p", ",")

    def primary(self):
        kind, val = self.peek()
        if kind == "sw":
            self.i += 1
            return Sw(*val)
        if kind == "int":
            self.i += 1
            return self.maybe_layout(val)
        if kind == "name":
            self.i += 1
            if val == "_":
                return U()
            if self.peek() != ("p", "("):
                raise ParseError("bare name %r" % val)
            return Call(val, self.args())
        if (kind, val) == ("p", "("):
            return self.maybe_layout(tuple(self.args()))
        raise ParseError("unexpected %r" % (val,))

    def maybe_layout(self, shape):
        if self.peek() != ("p", ":"):
            return shape
        self.eat("p", ":")
        kind, val = self.peek()
        if kind == "int":
            self.i += 1
            stride = val
        else:
            stride = tuple(self.args())
        if not (is_inttuple(shape) and is_inttuple(stride)):
            raise ParseError("layout with a non-integer shape/stride")
        return Lay(shape, stride)


def is_inttuple(v):
    if isinstance(v, tuple):
        return all(is_inttuple(x) for x in v)
    return isinstance(v, int) and not isinstance(v, bool)


# ----------------------------------------------------------------------------
# back to text (round-trip check of the parser: must reproduce the input exactly)
# ----------------------------------------------------------------------------
def ex(v):
    if isinstance(v, Call):
        return "%s(%s)" % (v.name, ", ".join(ex(a) for a in v.args))
    if isinstance(v, Apply):
        return "%s(%s)" % (ex(v.target), ",".join(ex(a) for a in v.args))
    if isinstance(v, Composed):
        return "%s o %s o %s" % (ex(v.outer), ex(v.off), ex(v.inner))
    if isinstance(v, tuple):
        return "(" + ",".join(ex(x) for x in v) + ")"
    return gen.ex(v)


# ----------------------------------------------------------------------------
# C++ spelling (static integers only)
# ----------------------------------------------------------------------------
class Untranslatable(Exception):
    pass


def int_arg(v, what):
    if not isinstance(v, int):
        raise Untranslatable("%s must be an integer literal" % what)
    return v


def is_int_valued(v):
    """Syntactically an integer: a literal or the application of a layout to a full coordinate."""
    if isinstance(v, int):
        return True
    if isinstance(v, Apply):
        return not any(gen.has_under(a) for a in v.args)
    if isinstance(v, Call):
        return v.name in ("size", "cosize", "rank", "depth", "crd2idx")
    return False


def cpp(v):
    if isinstance(v, (int, U, Lay, Sw, Comp)):
        return gen.cpp(v)
    if isinstance(v, tuple):
        return "make_tuple(%s)" % ",".join(cpp(x) for x in v)
    if isinstance(v, Apply):
        return "%s(%s)" % (cpp(v.target), ",".join(cpp(a) for a in v.args))
    if isinstance(v, Composed):
        if is_int_valued(v.inner):
            # `Sw o O o L(i)`: application binds tighter than ` o `; value Sw(O + L(i))
            return "%s(%s + %s)" % (cpp(v.outer), cpp(v.off), cpp(v.inner))
        return "make_composed_layout(%s,%s,%s)" % (cpp(v.outer), cpp(v.off), cpp(v.inner))
    if isinstance(v, Call):
        n, a = v.name, v.args
        if n in ("upcast", "downcast"):
            if len(a) != 2:
                raise Untranslatable(n)
            return "%s<%d>(%s)" % (n, int_arg(a[0], "N"), cpp(a[1]))
        if n == "recast_layout":
            if len(a) != 3:
                raise Untranslatable(n)
            return "recast_layout<uint_bit_t<%d>,uint_bit_t<%d>>(%s)" % (
                int_arg(a[0], "bits"), int_arg(a[1], "bits"), cpp(a[2]))
        if n == "get":
            if len(a) < 2:
                raise Untranslatable(n)
            return "get<%s>(%s)" % (",".join(str(int_arg(x, "index")) for x in a[1:]), cpp(a[0]))
        if n == "make_layout_tv":
            return "make_layout_tv_(%s)" % ",".join(cpp(x) for x in a)
        if not re.fullmatch(r"[a-z_][a-z_0-9]*", n):
            raise Untranslatable("function %s" % n)
        return "%s(%s)" % (n, ",".join(cpp(x) for x in a))
    raise Untranslatable(type(v).__name__)


# ----------------------------------------------------------------------------
# pycute
# ----------------------------------------------------------------------------
PYCUTE_SCRIPT = r"""
import json, sys
import pycute
from pycute import Layout, Swizzle

def ev(n):
    k = n[0]
    if k == "int": return n[1]
    if k == "under": return None
    if k == "tuple": return tuple(ev(x) for x in n[1])
    if k == "lay": return Layout(ev(n[1]), ev(n[2]))
    if k == "sw": return Swizzle(*n[1])
    if k == "call": return getattr(pycute, n[1])(*[ev(x) for x in n[2]])
    if k == "apply": return ev(n[1])(*[ev(x) for x in n[2]])
    raise ValueError(k)

def pr(v):
    if isinstance(v, Layout):
        return pr(v.shape) + ":" + pr(v.stride)
    if isinstance(v, tuple):
        return "(" + ",".join(pr(x) for x in v) + ")"
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(type(v))
    return str(v)

for ln in sys.stdin:
    ast = json.loads(ln)
    try:
        out = pr(ev(ast))
    except Exception as e:
        out = "error"
    print(json.dumps(out), flush=True)
"""


def to_json_ast(v):
    if isinstance(v, bool):
        raise Untranslatable("bool")
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, U):
        return ["under"]
    if isinstance(v, tuple):
        return ["tuple", [to_json_ast(x) for x in v]]
    if isinstance(v, Lay):
        return ["lay", to_json_ast(v.shape), to_json_ast(v.stride)]
    if isinstance(v, Sw):
        return ["sw", [v.b, v.m, v.s]]
    if isinstance(v, Call):
        return ["call", v.name, [to_json_ast(x) for x in v.args]]
    if isinstance(v, Apply):
        return ["apply", to_json_ast(v.target), [to_json_ast(x) for x in v.args]]
    raise Untranslatable("pycute: %s" % type(v).__name__)


def run_pycute(python, asts):
    """One pycute process for all cases: JSON AST lines in, printed result lines out."""
    p = subprocess.run([python, "-c", PYCUTE_SCRIPT], input="".join(json.dumps(a) + "\n" for a in asts),
                       capture_output=True, text=True, check=True)
    outs = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(outs) == len(asts), p.stderr
    return outs


# ----------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--in", dest="inp", default=DEFAULT_IN, help="input jsonl (op, expr)")
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--batch", type=int, default=300, help="cases per translation unit")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel g++ processes")
    ap.add_argument("--limit", type=int, default=0, help="only the first N input lines (smoke test)")
    ap.add_argument("--pycute-all", action="store_true",
                    help="compute pycute for every line (not only those whose input has the field) "
                         "and keep it where it differs from C++")
    ap.add_argument("--diff", default="", help="compare the output with this jsonl and print a summary")
    ap.add_argument("--errlog", default="", help="write expr and first compiler error of each error case")
    ap.add_argument("--keep-tmp", action="store_true")
    args = ap.parse_args()

    t0 = time.time()
    rows = [json.loads(ln) for ln in open(args.inp) if ln.strip()]
    if args.limit:
        rows = rows[:args.limit]

    # parse + translate (each distinct expression once)
    cases, by_expr, untranslated = [], {}, {}
    asts = {}
    for r in rows:
        e = r["expr"]
        if e in by_expr or e in untranslated:
            continue
        try:
            v = Parser(e).parse()
            if ex(v) != e:
                raise Untranslatable("round trip: %s" % ex(v))
            c = {"id": len(cases), "expr": e, "cpp": cpp(v)}
        except (ParseError, Untranslatable) as err:
            untranslated[e] = str(err)
            continue
        asts[e] = v
        by_expr[e] = c
        cases.append(c)
    print("%d lines, %d distinct expressions translated, %d untranslatable" %
          (len(rows), len(cases), len(untranslated)), file=sys.stderr)
    for e, why in untranslated.items():
        print("  untranslatable: %s  (%s)" % (e, why), file=sys.stderr)

    workdir = tempfile.mkdtemp(prefix="cute-corpus-")
    orc = gen.Oracle(args.oracle_dir, workdir)
    results = {}
    batches = [cases[i:i + args.batch] for i in range(0, len(cases), args.batch)]
    lock = threading.Lock()
    gen.solve_batches(orc, batches, args.jobs, results, lock, t0)

    # C++ results
    expect, errlines, problems = {}, [], []
    for c in cases:
        r = results.get(c["id"])
        if isinstance(r, tuple) and r[0] == "error":
            expect[c["expr"]] = "error"
            errlines.append("%s\t%s" % (c["expr"], r[1]))
        elif isinstance(r, str) and gen.convert(r) is not None:
            expect[c["expr"]] = gen.convert(r)[0]
        else:
            problems.append("%s -> %r" % (c["expr"], r))
    for p in problems:
        print("  no result (crash / unrepresentable): %s" % p, file=sys.stderr)

    # pycute
    py_exprs = []
    for r in rows:
        e = r["expr"]
        if (("pycute" in r) or args.pycute_all) and e in expect and e not in py_exprs:
            py_exprs.append(e)
    pyc = {}
    if py_exprs:
        python = os.path.join(args.oracle_dir, "venv", "bin", "python")
        todo = []
        for e in py_exprs:
            try:
                todo.append((e, to_json_ast(asts[e])))
            except Untranslatable:
                pass
        pyc = dict(zip([e for e, _ in todo], run_pycute(python, [a for _, a in todo])))

    out_rows, missing = [], 0
    for r in rows:
        e = r["expr"]
        o = {"op": r["op"], "expr": e}
        if e in expect:
            o["expect"] = expect[e]
        else:
            missing += 1
            continue
        # as in the original corpus: only where pycute computes a value (it has no
        # blocked/raked_product) for a case C++ accepts, and that value differs
        if e in pyc and pyc[e] != "error" and o["expect"] != "error" and pyc[e] != o["expect"]:
            o["pycute"] = pyc[e]
        out_rows.append(o)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        for o in out_rows:
            f.write(json.dumps(o) + "\n")
    os.replace(tmp, args.out)
    if args.errlog:
        with open(args.errlog, "w") as f:
            f.write("\n".join(errlines) + "\n")
    print("wrote %d lines to %s (%d input lines without a result), %d compiles, %.0fs" %
          (len(out_rows), args.out, missing, orc.compiles, time.time() - t0), file=sys.stderr)

    if args.diff:
        ref = [ln.rstrip("\n") for ln in open(args.diff)]
        mine = [json.dumps(o) for o in out_rows]
        if args.limit:
            ref = ref[:args.limit]
        same = sum(1 for a, b in zip(ref, mine) if a == b)
        print("diff vs %s: %d/%d lines identical (%d reference lines)" % (args.diff, same, len(mine), len(ref)),
              file=sys.stderr)
        for a, b in zip(ref, mine):
            if a != b:
                print("  - %s\n  + %s" % (a, b), file=sys.stderr)
    if not args.keep_tmp:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
