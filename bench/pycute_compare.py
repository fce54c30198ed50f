#!/usr/bin/env python3
"""Benchmark: CuTe Layout Explorer `render --print -` versus pycute.

Steps
  1. Build a script (one expression per line) from the `expr` fields of
     cute-cases.jsonl (first --lines lines, default 4000, or --all) and write it
     to bench/out/script.txt.
  2. Translate every line from our expression syntax to a Python expression
     over pycute (tokenizer + recursive descent), compile each once, and time
     (a) translate+compile+eval, (b) eval only, in process; also time a whole
     pycute process (`python pycute_compare.py --run-script FILE`, which acts
     like `render --print -`) so both sides pay process start-up.
  3. Time `render --print - < script` as a whole process (hyperfine if
     installed, else repeated subprocess runs, median) and print the ratio
     pycute_time / render_time.

pycute must be importable: run with $PYCUTE_PYTHON (the script
re-executes itself with that interpreter if `import pycute` fails and the venv
exists).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CASES = os.environ.get(
    "CUTE_CASES", str(REPO / "testdata/cute-cases.jsonl")
)
ORACLE_PY = os.environ.get("PYCUTE_PYTHON", "python3")

try:
    import pycute
except ImportError:  # re-exec under the oracle venv if we can
    if os.path.exists(ORACLE_PY) and os.path.abspath(sys.executable) != os.path.abspath(ORACLE_PY) \
            and not os.environ.get("PYCUTE_COMPARE_REEXEC"):
        os.environ["PYCUTE_COMPARE_REEXEC"] = "1"
        os.execv(ORACLE_PY, [ORACLE_PY, __file__] + sys.argv[1:])
    sys.exit("pycute is not importable; run with %s (see bench/README.md)" % ORACLE_PY)


# ---------------------------------------------------------------------------
# Translator: our expression syntax -> Python source over pycute
# ---------------------------------------------------------------------------

class Unsupported(Exception):
    """The line is valid (or may be) in our language but pycute cannot do it."""


class ParseError(Exception):
    pass


TOKEN_RE = re.compile(r"\s*(?:(?P<int>\d+)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<punct>[(),:<>{}\-]))")


def tokenize(src):
    toks = []
    pos = 0
    n = len(src)
    while pos < n:
        m = TOKEN_RE.match(src, pos)
        if not m or m.end() == pos:
            if src[pos:].strip() == "":
                break
            raise ParseError("bad character %r at column %d" % (src[pos], pos + 1))
        pos = m.end()
        if m.group("int") is not None:
            toks.append(("int", int(m.group("int"))))
        elif m.group("name") is not None:
            toks.append(("name", m.group("name")))
        else:
            toks.append(("p", m.group("punct")))
    toks.append(("eof", None))
    return toks


# IR nodes are tuples: ("int", v) ("slice",) ("tuple", [items]) ("layout", S, D)
# ("call", name, [args]) ("swz", b, m, s) ("apply", target, [args]) ("compose", [parts])

class Parser:
    def __init__(self, src):
        self.toks = tokenize(src)
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, kind, val=None):
        t = self.next()
        if t[0] != kind or (val is not None and t[1] != val):
            raise ParseError("expected %s got %r" % (val or kind, t[1]))
        return t

    def at(self, kind, val=None):
        t = self.peek()
        return t[0] == kind and (val is None or t[1] == val)

    def parse(self):
        e = self.expr()
        if not self.at("eof"):
            raise ParseError("trailing input %r" % (self.peek()[1],))
        return e

    def expr(self):
        parts = [self.postfix()]
        while self.at("name", "o"):
            self.next()
            parts.append(self.postfix())
        return parts[0] if len(parts) == 1 else ("compose", parts)

    def postfix(self):
        e = self.layout_or_primary()
        while self.at("p", "("):
            e = ("apply", e, self.arglist())
        return e

    def layout_or_primary(self):
        e = self.primary()
        if self.at("p", ":"):
            self.next()
            d = self.primary()
            e = ("layout", e, d)
        return e

    def arglist(self):
        self.expect("p", "(")
        args = []
        if not self.at("p", ")"):
            args.append(self.expr())
            while self.at("p", ","):
                self.next()
                args.append(self.expr())
        self.expect("p", ")")
        return args

    def signed_int(self):
        neg = False
        if self.at("p", "-"):
            self.next()
            neg = True
        v = self.expect("int")[1]
        return -v if neg else v

    def primary(self):
        t = self.peek()
        if t == ("p", "-") or t[0] == "int":
            return ("int", self.signed_int())
        if t == ("p", "("):
            return ("tuple", self.arglist())
        if t[0] == "name":
            name = t[1]
            self.next()
            if name == "_":
                return ("slice",)
            if re.fullmatch(r"_\d+", name):
                return ("int", int(name[1:]))
            if name in ("Sw", "Swizzle") and self.at("p", "<"):
                self.next()
                b = self.signed_int(); self.expect("p", ",")
                m = self.signed_int(); self.expect("p", ",")
                s = self.signed_int(); self.expect("p", ">")
                if self.at("p", "{"):
                    self.next(); self.expect("p", "}")
                return ("swz", b, m, s)
            if name == "Int" and self.at("p", "<"):
                self.next()
                v = self.signed_int()
                self.expect("p", ">"); self.expect("p", "{"); self.expect("p", "}")
                return ("int", v)
            if self.at("p", "("):
                return ("call", name, self.arglist())
            return ("name", name)
        raise ParseError("unexpected %r" % (t[1],))


def int_tuple_src(node):
    """Python source for a pure int-tuple literal (shape/stride of a layout)."""
    k = node[0]
    if k == "int":
        return repr(node[1])
    if k == "tuple":
        return "(" + "".join(int_tuple_src(x) + "," for x in node[1]) + ")"
    raise Unsupported("non-literal shape/stride")


FUNCS = {
    # our name -> (python callable name, allowed arities)
    "size": ("size", (1,)),
    "cosize": ("cosize", (1,)),
    "coalesce": ("coalesce", (1, 2)),
    "filter": ("filter", (1, 2)),
    "complement": ("complement", (1, 2)),
    "composition": ("composition", (2,)),
    "right_inverse": ("right_inverse", (1,)),
    "left_inverse": ("left_inverse", (1,)),
    "logical_divide": ("logical_divide", (2,)),
    "zipped_divide": ("zipped_divide", (2,)),
    "tiled_divide": ("tiled_divide", (2,)),
    "logical_product": ("logical_product", (2,)),
    "zipped_product": ("zipped_product", (2,)),
    "tiled_product": ("tiled_product", (2,)),
    # not in pycute: CuTe's definition built from pycute primitives (see helpers below)
    "blocked_product": ("_blocked_product", (2,)),
    "raked_product": ("_raked_product", (2,)),
    "idx2crd": ("idx2crd", (2, 3)),
    "crd2idx": ("crd2idx", (2, 3)),
    "make_layout": ("_make_layout", (1, 2)),
}


def to_py(node):
    k = node[0]
    if k == "int":
        return repr(node[1])
    if k == "slice":
        return "None"
    if k == "tuple":
        return "(" + "".join(to_py(x) + "," for x in node[1]) + ")"
    if k == "layout":
        return "Layout(%s,%s)" % (int_tuple_src(node[1]), int_tuple_src(node[2]))
    if k == "swz":
        return "Swizzle(%d,%d,%d)" % node[1:]
    if k == "apply":
        return "%s(%s)" % (to_py(node[1]), ",".join(to_py(a) for a in node[2]))
    if k == "call":
        name, args = node[1], node[2]
        if name not in FUNCS:
            raise Unsupported("function %s not in pycute" % name)
        py, arities = FUNCS[name]
        if len(args) not in arities:
            raise Unsupported("arity")
        return "%s(%s)" % (py, ",".join(to_py(a) for a in args))
    if k == "compose":
        raise Unsupported("composed layouts (` o `) are not in pycute")
    raise Unsupported("name %r" % (node[1],))


def translate(src):
    return to_py(Parser(src).parse())


# ---------------------------------------------------------------------------
# Evaluation namespace: pycute plus the two products CuTe has and pycute lacks
# ---------------------------------------------------------------------------

def _append_rank(layout, r):
    """CuTe append<R>(layout): pad with 1:0 modes up to rank R."""
    shape = layout.shape if pycute.is_tuple(layout.shape) else (layout.shape,)
    stride = layout.stride if pycute.is_tuple(layout.stride) else (layout.stride,)
    pad = r - len(shape)
    if pad <= 0 and len(shape) == 1 and not pycute.is_tuple(layout.shape):
        return layout
    return pycute.Layout(tuple(shape) + (1,) * max(pad, 0), tuple(stride) + (0,) * max(pad, 0))


def _zip_layouts(a, b):
    """CuTe zip(layoutA, layoutB): transpose ((a0,a1,..),(b0,b1,..)) -> ((a0,b0),(a1,b1),..);
    when A's shape is not a tuple CuTe's zip returns make_tuple((a,b)) unchanged."""
    if not pycute.is_tuple(a.shape):
        return pycute.Layout(((a.shape, b.shape),), ((a.stride, b.stride),))
    sa = a.shape if pycute.is_tuple(a.shape) else (a.shape,)
    da = a.stride if pycute.is_tuple(a.stride) else (a.stride,)
    sb = b.shape if pycute.is_tuple(b.shape) else (b.shape,)
    db = b.stride if pycute.is_tuple(b.stride) else (b.stride,)
    assert len(sa) == len(sb)
    return pycute.Layout(tuple(zip(sa, sb)), tuple(zip(da, db)))


def _blocked_product(block, tiler):
    r = max(len(block), len(tiler))
    res = pycute.logical_product(_append_rank(block, r), _append_rank(tiler, r))
    return _zip_layouts(res[0], res[1])


def _raked_product(block, tiler):
    r = max(len(block), len(tiler))
    res = pycute.logical_product(_append_rank(block, r), _append_rank(tiler, r))
    return _zip_layouts(res[1], res[0])


def _make_layout(shape, stride=None):
    return pycute.Layout(shape, stride)


def make_namespace():
    ns = {"__builtins__": {}}
    for name in ("Layout", "Swizzle", "size", "cosize", "coalesce", "filter", "complement",
                 "composition", "right_inverse", "left_inverse", "logical_divide",
                 "zipped_divide", "tiled_divide", "logical_product", "zipped_product",
                 "tiled_product", "idx2crd", "crd2idx"):
        ns[name] = getattr(pycute, name)
    ns["_blocked_product"] = _blocked_product
    ns["_raked_product"] = _raked_product
    ns["_make_layout"] = _make_layout
    return ns


# ---------------------------------------------------------------------------
# Printing pycute values the way CuTe C++ print() does (static `_` dropped)
# ---------------------------------------------------------------------------

def fmt(v):
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "(" + ",".join(fmt(x) for x in v) + ")"
    if v is None:
        return "_"
    if isinstance(v, pycute.Layout):
        return fmt(v.shape) + ":" + fmt(v.stride)
    if isinstance(v, pycute.Swizzle):
        return "Sw<%d,%d,%d>" % (v.bits, v.base, v.shift)
    return str(v)


# ---------------------------------------------------------------------------

def load_cases(path, n):
    cases = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            cases.append(json.loads(line))
            if n is not None and len(cases) >= n:
                break
    return cases


def compile_lines(lines):
    """Returns list of (code or None, kind) where kind in ok/skip."""
    out = []
    for s in lines:
        try:
            py = translate(s)
            out.append((compile(py, "<expr>", "eval"), "ok"))
        except (Unsupported, ParseError) as e:
            out.append((None, "skip"))
    return out


def run_eval_only(codes, ns):
    t0 = time.perf_counter()
    for code, _ in codes:
        if code is None:
            continue
        try:
            eval(code, ns)
        except Exception:
            pass
    return time.perf_counter() - t0


def run_parse_eval(lines, ns):
    t0 = time.perf_counter()
    for s in lines:
        try:
            eval(compile(translate(s), "<expr>", "eval"), ns)
        except Exception:
            pass
    return time.perf_counter() - t0


def run_full(lines, ns):
    """translate + compile + eval + format, as render --print does."""
    out = []
    t0 = time.perf_counter()
    for s in lines:
        try:
            out.append(fmt(eval(compile(translate(s), "<expr>", "eval"), ns)))
        except (Unsupported, ParseError) as e:
            out.append("skip: %s" % e)
        except Exception as e:
            out.append("error: %s" % (type(e).__name__,))
    return time.perf_counter() - t0, out


def run_script_mode(path):
    """Behave like `render --print -` using pycute (for whole-process timing)."""
    ns = make_namespace()
    src = sys.stdin if path == "-" else open(path)
    w = sys.stdout.write
    bad = 0
    for line in src:
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        try:
            w(fmt(eval(compile(translate(s), "<expr>", "eval"), ns)) + "\n")
        except Exception as e:
            bad += 1
            w("error: %s\n" % type(e).__name__)
    return 1 if bad else 0


def fmt_t(t):
    return "%.1f ms" % (t * 1e3)


def time_process(cmd_shell, runs, warmup, label, out_dir):
    """Median wall time of a shell command line. hyperfine if present."""
    hf = shutil.which("hyperfine")
    if hf:
        js = out_dir / ("hyperfine-%s.json" % label)
        r = subprocess.run([hf, "-i", "--warmup", str(warmup), "--runs", str(runs), "--style", "basic",
                            "--export-json", str(js), "-n", label, cmd_shell],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(r.stdout.rstrip())
        res = json.load(open(js))["results"][0]
        return res["median"], "hyperfine (median of %d runs, shell spawn subtracted)" % runs
    ts = []
    for i in range(warmup + runs):
        t0 = time.perf_counter()
        subprocess.run(cmd_shell, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if i >= warmup:
            ts.append(time.perf_counter() - t0)
    return statistics.median(ts), "perf_counter (median of %d runs, includes /bin/sh spawn)" % runs


def shq(p):
    return "'" + str(p).replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=DEFAULT_CASES, help="cute-cases.jsonl (default %(default)s)")
    ap.add_argument("--lines", type=int, default=4000, help="use the first N cases (default 4000)")
    ap.add_argument("--all", action="store_true", help="use every case in the file")
    ap.add_argument("--out", default=str(REPO / "bench" / "out"), help="output dir (default bench/out)")
    ap.add_argument("--render", default=str(REPO / "target" / "release" / "render"),
                    help="render binary (default target/release/render)")
    ap.add_argument("--build", action="store_true", help="cargo build --release --bin render first")
    ap.add_argument("--repeat", type=int, default=7, help="in-process pycute repetitions (median)")
    ap.add_argument("--runs", type=int, default=10, help="whole-process runs for each side")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--no-process-pycute", action="store_true",
                    help="skip the whole-process pycute timing")
    ap.add_argument("--run-script", metavar="FILE",
                    help="internal: evaluate FILE (or -) with pycute, one output line per line, like render --print -")
    args = ap.parse_args()

    if args.run_script:
        sys.exit(run_script_mode(args.run_script))

    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    cases = load_cases(args.cases, None if args.all else args.lines)
    lines = [c["expr"] for c in cases]
    for s in lines:
        assert "\n" not in s and not s.lstrip().startswith("#")
    script = out_dir / "script.txt"
    script.write_text("".join(s + "\n" for s in lines))
    print("script: %s (%d lines from %s)" % (script, len(lines), args.cases))

    # ---- pycute, in process ------------------------------------------------
    ns = make_namespace()
    codes = compile_lines(lines)
    skipped = sum(1 for c, k in codes if k == "skip")
    run_full(lines, ns)  # warm-up
    eval_only = statistics.median(run_eval_only(codes, ns) for _ in range(args.repeat))
    parse_eval = statistics.median(run_parse_eval(lines, ns) for _ in range(args.repeat))
    fulls = []
    for _ in range(args.repeat):
        t, outs = run_full(lines, ns)
        fulls.append(t)
    full = statistics.median(fulls)
    (out_dir / "pycute-out.txt").write_text("".join(o + "\n" for o in outs))

    raised = sum(1 for o in outs if o.startswith("error:"))
    agree_cute = agree_pycute_key = 0
    for c, o in zip(cases, outs):
        exp = c["expect"]
        got = "error" if o.startswith("error:") else o
        if got == exp:
            agree_cute += 1
        if "pycute" in c and got == c["pycute"]:
            agree_pycute_key += 1
    n_pk = sum(1 for c in cases if "pycute" in c)

    print("\n== pycute (in process, %s, median of %d) ==" % (pycute.__file__, args.repeat))
    print("lines: %d  translated: %d  skipped (untranslatable): %d  raised at eval: %d"
          % (len(lines), len(lines) - skipped, skipped, raised))
    print("eval only                          : %s  (%.2f us/line)" % (fmt_t(eval_only), eval_only / len(lines) * 1e6))
    print("translate+compile+eval             : %s  (%.2f us/line)" % (fmt_t(parse_eval), parse_eval / len(lines) * 1e6))
    print("translate+compile+eval+format      : %s" % fmt_t(full))
    print("agreement with CuTe C++ `expect`   : %d/%d  (lines with a recorded `pycute` value: %d, matching it: %d)"
          % (agree_cute, len(lines), n_pk, agree_pycute_key))

    py_proc = None
    if not args.no_process_pycute:
        cmd = "%s %s --run-script - < %s > /dev/null" % (shq(sys.executable), shq(Path(__file__).resolve()), shq(script))
        print("\n== pycute, whole process ==\n$ " + cmd)
        py_proc, how = time_process(cmd, args.runs, args.warmup, "pycute", out_dir)
        print("pycute whole process: %s  [%s]" % (fmt_t(py_proc), how))

    # ---- render -------------------------------------------------------------
    render = Path(args.render)
    if args.build:
        subprocess.run(["cargo", "build", "--release", "--bin", "render"], cwd=REPO, check=False)
    print("\n== render ==")
    if not (render.is_file() and os.access(render, os.X_OK)):
        print("SKIPPED: render binary not found at %s (build it with `cargo build --release --bin render`,"
              " or pass --render PATH / --build)" % render)
        return 0
    r = subprocess.run([str(render), "--print", "-"], stdin=open(script), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    routs = r.stdout.splitlines()
    (out_dir / "render-out.txt").write_text(r.stdout)
    ok = sum(1 for c, o in zip(cases, routs)
             if o == c["expect"] or (c["expect"] == "error" and o.startswith("error")))
    print("render exit %d, %d output lines for %d input lines; agreement with CuTe `expect`: %d/%d"
          % (r.returncode, len(routs), len(lines), ok, len(lines)))
    cmd = "%s --print - < %s > /dev/null" % (shq(render.resolve()), shq(script))
    print("$ " + cmd)
    rt, how = time_process(cmd, args.runs, args.warmup, "render", out_dir)
    print("render whole process: %s  [%s]" % (fmt_t(rt), how))

    print("\n== ratio pycute_time / render_time ==")
    if py_proc is not None:
        print("whole process vs whole process       : %.1fx" % (py_proc / rt))
    print("pycute eval-only (in process) / render: %.1fx" % (eval_only / rt))
    print("pycute translate+eval / render        : %.1fx" % (parse_eval / rt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
