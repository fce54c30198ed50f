#!/usr/bin/env python3
"""A manifest of every SVG `render` draws, to check that a refactor changes no picture.

    python3 bench/svg_manifest.py TREE OUT [--render PATH] [--jobs 2] [--corpus PATH]
    python3 bench/svg_manifest.py --compare BEFORE.tsv AFTER.tsv   # by (view, expr) key

Uses TREE/target/release/render (build it first: `cargo build --release --locked --bin
render` in TREE, or let bench/callgrind.sh do it). Draws, one `render` process each
(`render --expr EXPR [--view V] [options] out.svg`, 2 in parallel):

  * auto view: every "expr" of the reference corpus (cute-cases.jsonl: --corpus, else
    $CUTE_CASES, else TREE/testdata/, 
    TREE/../shared/reference/) and of every TREE/testdata/*.jsonl line
    that has an "expr" field;
  * the page's presets (TREE/web/src/presets.rs, `p("group", "label", "expr", View::X)`),
    each with its view;
  * each of the 11 views (and auto) for a fixed set of representative expressions taken
    from the README's examples (fixed in this file, so both trees draw the same ones), plus
    the README's command lines with their options (--bits, --bit-offset, --access/--instr,
    --highlight-*), and two with --palette colorblind / --theme dark.

Lines are keyed by (view, expr text), never by the file an expr came from (the data files
may move between trees); duplicates are drawn once. Each OUT line:

    sha256(svg bytes) <TAB> view [options] <TAB> expr
    ERROR <TAB> view [options] <TAB> expr <TAB> first line of stderr

with \\, tab, CR and newline in expr/stderr written as \\\\, \\t, \\r, \\n. OUT is sorted by
(view, expr); a summary goes to stderr. "TIMEOUT" replaces the hash when a render takes
more than --timeout seconds (default 300).
"""

import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

VIEWS = ["layout", "swizzle", "tv", "mma", "copy", "banks", "search", "algebra",
         "descriptor", "tmem", "tma"]

# Representative expressions from the README's examples (render --help's, the view table,
# the Hopper/Blackwell section, the --print examples, the script and paste examples).
README_EXPRS = [
    "composition(Sw<3,2,3>, (8,32):(32,1))",
    "(4,(2,4)):(2,(1,8))",
    "(8,8):(8,1)",
    "Sw<3,4,3> o 0 o (8,64):(64,1)",
    "composition(Sw<3,4,3>, (8,64):(64,1))",
    "Layout<Shape<_8,_32>,Stride<_32,_1>>{}",
    "make_layout_tv((4,32):(32,1), (4,8):(8,1))",
    "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))",
    "make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))",
    "(32,64):(64,1)",
    "bank_conflicts(Sw<3,2,4> o 0 o (32,64):(64,1), 32, (32,4):(1,32), LDS128)",
    "swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)",
    "composition((4,8):(8,1), (2,4):(4,1))",
    "logical_divide((4,2,3):(2,1,8), 4:2)",
    "make_gmma_desc<GMMA::Major::MN>(composition(tile_to_shape(GMMA::Layout_MN_SW32_Atom<half_t>{}, Shape<_32,_32>{}), make_tile(_32{}, _16{})))",
    "atom(SM100_TMEM_LOAD_16dp256b1x)",
    "make_tma_copy(make_layout(make_shape(256, 512), make_stride(512, _1{})), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_16,_64>{}))",
    "A = (4,8):(8,1)\nA(13)\nA(_,2)\nright_inverse(A)\ncoalesce(A, (1,1))",
    "using Element = cutlass::half_t;\nconstexpr int kStages = 4;   // pipeline depth\n"
    "using SmemLayoutAtomA = GMMA::Layout_K_SW128_Atom<Element>;\n"
    "using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{},\n"
    "    make_shape(Int<128>{}, Int<64>{}, Int<kStages>{})));\nSmemLayoutA{}\n",
    "composition((6,2):(8,2), (4,3):(3,1)",
]

# The README's command lines with options: (options, expr).
README_CLI = [
    (["--bits", "16", "--bit-offset", "72"], "Sw<3,4,3> o 0 o (8,64):(64,1)"),
    (["--highlight-thread", "5"], "make_layout_tv((4,32):(32,1), (4,8):(8,1))"),
    (["--highlight-warp", "1"], "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))"),
    (["--bits", "32", "--access", "(32,4):(1,32)", "--instr", "LDS128"], "(32,64):(64,1)"),
    (["--bits", "32", "--access", "(32,4):(1,32)", "--instr", "LDS128", "--view", "search"],
     "(32,64):(64,1)"),
    (["--palette", "colorblind"], "Sw<3,4,3> o 0 o (8,64):(64,1)"),
    (["--theme", "dark"], "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))"),
    (["--palette", "colorblind", "--theme", "dark"], "make_layout_tv((4,32):(32,1), (4,8):(8,1))"),
]


def esc(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r")
            .replace("\n", "\\n"))


def find_corpus(tree, given):
    cands = [given, os.environ.get("CUTE_CASES"),
             os.path.join(tree, "testdata/cute-cases.jsonl"),
                          os.path.join(tree, "../shared/reference/cute-cases.jsonl")]
    for c in cands:
        if c and os.path.isfile(c):
            return os.path.realpath(c)
    sys.exit("error: cute-cases.jsonl not found (--corpus)")


def rust_str(body):
    """Unescape the inside of a Rust "..." literal."""
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = body[i + 1]
        if n == "\n":  # line continuation: skip the newline and leading whitespace
            i += 2
            while i < len(body) and body[i] in " \t\n\r":
                i += 1
            continue
        if n == "u":
            j = body.index("}", i)
            out.append(chr(int(body[i + 3:j], 16)))
            i = j + 1
            continue
        if n == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
            continue
        out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"',
                    "'": "'"}[n])
        i += 2
    return out and "".join(out) or ""


def presets(tree):
    path = os.path.join(tree, "web/src/presets.rs")
    if not os.path.isfile(path):
        print(f"warning: {path} not found: no presets", file=sys.stderr)
        return []
    src = open(path, encoding="utf-8").read()
    lit = r'"((?:[^"\\]|\\.)*)"'
    pat = re.compile(r"\bp\(\s*" + lit + r"\s*,\s*" + lit + r"\s*,\s*" + lit +
                     r"\s*,\s*View::(\w+)\s*,?\s*\)", re.S)
    found = [(m.group(4).lower(), rust_str(m.group(3))) for m in pat.finditer(src)]
    calls = len(re.findall(r"\bp\(\s*\"", src))
    if calls != len(found):
        print(f"warning: presets.rs has {calls} p(...) calls, parsed {len(found)}",
              file=sys.stderr)
    return found


def jobs_for(tree, corpus):
    items = {}  # (view label, expr) -> argv options

    def add(label, opts, expr):
        items.setdefault((label, expr), opts)

    files = [corpus] + sorted(glob.glob(os.path.join(tree, "testdata/*.jsonl")))
    counts = {}
    for f in files:
        n = 0
        for line in open(f, encoding="utf-8"):
            if not line.strip():
                continue
            d = json.loads(line)
            if isinstance(d.get("expr"), str):
                add("auto", [], d["expr"])
                n += 1
        counts[os.path.relpath(f, tree)] = n
    ps = presets(tree)
    for view, expr in ps:
        add(view, ["--view", view], expr)
    for expr in README_EXPRS:
        add("auto", [], expr)
        for v in VIEWS:
            add(v, ["--view", v], expr)
    for opts, expr in README_CLI:
        view = opts[opts.index("--view") + 1] if "--view" in opts else "auto"
        rest = [o for k, o in enumerate(opts)
                if o != "--view" and (k == 0 or opts[k - 1] != "--view")]
        add(" ".join([view] + rest), opts, expr)
    return items, counts, len(ps)


def compare(before, after):
    """--compare BEFORE AFTER: lines keyed by (view, expr); exit 1 on any difference."""
    def load(path):
        d = {}
        for line in open(path, encoding="utf-8"):
            f = line.rstrip("\n").split("\t")
            d[(f[1], f[2])] = "\t".join([f[0]] + f[3:])
        return d
    b, a = load(before), load(after)
    common = b.keys() & a.keys()
    changed = sorted(k for k in common if b[k] != a[k])
    for k in changed:
        print(f"CHANGED\t{k[0]}\t{k[1]}\n  before: {b[k]}\n  after:  {a[k]}")
    for k in sorted(b.keys() - a.keys()):
        print(f"ONLY-BEFORE\t{k[0]}\t{k[1]}")
    for k in sorted(a.keys() - b.keys()):
        print(f"ONLY-AFTER\t{k[0]}\t{k[1]}")
    print(f"{len(common)} common keys, {len(changed)} changed, {len(b.keys() - a.keys())} only "
          f"before, {len(a.keys() - b.keys())} only after", file=sys.stderr)
    return 1 if changed or b.keys() != a.keys() else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    ap = argparse.ArgumentParser()
    ap.add_argument("tree")
    ap.add_argument("out")
    ap.add_argument("--render")
    ap.add_argument("--corpus")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    tree = os.path.realpath(a.tree)
    render = a.render or os.path.join(tree, "target/release/render")
    if not os.access(render, os.X_OK):
        sys.exit(f"error: {render} not found: cargo build --release --locked --bin render")
    corpus = find_corpus(tree, a.corpus)
    items, counts, npresets = jobs_for(tree, corpus)
    for f, n in counts.items():
        print(f"  {n:6} exprs  {f}", file=sys.stderr)
    print(f"  {npresets:6} presets; {len(items)} distinct (view, expr) to draw", file=sys.stderr)

    tmp = tempfile.mkdtemp(prefix="svg-manifest-")

    def draw(job):
        k, ((label, expr), opts) = job
        path = os.path.join(tmp, f"{k}.svg")
        try:
            p = subprocess.run([render, "--expr", expr] + opts + [path],
                               stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=a.timeout)
        except subprocess.TimeoutExpired:
            return f"TIMEOUT\t{esc(label)}\t{esc(expr)}\t>{a.timeout}s"
        if p.returncode != 0:
            err = p.stderr.decode("utf-8", "replace").splitlines()
            first = err[0] if err else f"exit {p.returncode}, no stderr"
            if os.path.exists(path):
                os.unlink(path)
            return f"ERROR\t{esc(label)}\t{esc(expr)}\t{esc(first)}"
        with open(path, "rb") as fh:
            h = hashlib.sha256(fh.read()).hexdigest()
        os.unlink(path)
        return f"{h}\t{esc(label)}\t{esc(expr)}"

    keys = sorted(items)
    lines = []
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for n, line in enumerate(ex.map(draw, enumerate((k, items[k]) for k in keys)), 1):
            lines.append(line)
            if n % 1000 == 0:
                print(f"  {n}/{len(keys)}", file=sys.stderr)
    os.rmdir(tmp)
    # keys are sorted by (view, expr); lines follow that order.
    with open(a.out, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
    errors = sum(l.startswith("ERROR\t") for l in lines)
    timeouts = sum(l.startswith("TIMEOUT\t") for l in lines)
    print(f"{a.out}: {len(lines)} lines, {errors} ERROR, {timeouts} TIMEOUT, "
          f"sha256 {hashlib.sha256(open(a.out, 'rb').read()).hexdigest()}", file=sys.stderr)


if __name__ == "__main__":
    main()
