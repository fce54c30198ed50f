#!/usr/bin/env python3
"""SVG drawing speed: tensor-layouts' draw_layout (matplotlib) versus our `render` binary.

Each side is timed as a whole process, one layout per process:
  tensor-layouts:  python bench/tensor_layouts_svg.py --tl-draw CASE OUT.svg
                   (interpreter start-up + import tensor_layouts + tensor_layouts.viz
                   (matplotlib) + build the layout + draw_layout(layout, OUT.svg))
  ours:            target/release/render OUT.svg --expr EXPR
with hyperfine (-N, no shell) when installed, else the median of --runs subprocess runs.

Cases: the 256x256 swizzled layout Sw<3,4,3> o 0 o (256,256):(256,1), the seeds' 8x32
tile Sw<3,2,3> o 0 o (8,32):(32,1), and a plain (16,16):(16,1). Our renderer drops the
per-cell text above 16,384 cells, tensor-layouts writes a number into every cell by
default, so the 256x256 case is also timed with draw_layout(..., cell_labels=False)
("sw256-nolabels"), the like-for-like picture.

After timing, both outputs are checked to be the same layout: tensor-layouts' SVG must
hold rows*cols cell rectangles (matplotlib patches stroked black; its text is glyph
paths, so its offsets are not in the file), and our SVG's data-row/data-col/data-offset
attributes must equal tensor-layouts' layout evaluated at (row, col) in this process.

Usage:
  cargo build --release -p cute-render
  python3 bench/tensor_layouts_svg.py                       # all cases
  python3 bench/tensor_layouts_svg.py --cases plain16,tile8x32 --runs 10 --big-runs 3
The script re-executes itself with .venv-tl/bin/python (or $TL_PYTHON) when
`import tensor_layouts` fails; tensor-layouts' viz needs matplotlib
(`pip install 'tensor-layouts[viz]==0.3.2'`).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TL_PY = os.environ.get("TL_PYTHON", ".venv-tl/bin/python")

# name -> (our expression, (swizzle B,M,S or None, shape, stride), tensor-layouts draw kwargs)
CASES = {
    "sw256": ("Sw<3,4,3> o 0 o (256,256):(256,1)", ((3, 4, 3), (256, 256), (256, 1)), {}),
    "sw256-nolabels": ("Sw<3,4,3> o 0 o (256,256):(256,1)", ((3, 4, 3), (256, 256), (256, 1)),
                       {"cell_labels": False}),
    "tile8x32": ("Sw<3,2,3> o 0 o (8,32):(32,1)", ((3, 2, 3), (8, 32), (32, 1)), {}),
    "plain16": ("(16,16):(16,1)", (None, (16, 16), (16, 1)), {}),
}
BIG = {"sw256", "sw256-nolabels"}


def tl_layout(case):
    from tensor_layouts import Layout, Swizzle, compose
    sw, shape, stride = CASES[case][1]
    lay = Layout(shape, stride)
    return compose(Swizzle(*sw), lay) if sw else lay


def tl_draw(case, out):
    """The timed tensor-layouts process body."""
    from tensor_layouts.viz import draw_layout
    draw_layout(tl_layout(case), out, **CASES[case][2])


if len(sys.argv) >= 2 and sys.argv[1] == "--tl-draw":   # fast path for the timed process
    tl_draw(sys.argv[2], sys.argv[3])
    sys.exit(0)

try:
    import tensor_layouts  # noqa: F401
    import matplotlib  # noqa: F401
except ImportError:
    if os.path.exists(TL_PY) and os.path.abspath(sys.executable) != os.path.abspath(TL_PY) \
            and not os.environ.get("TL_SVG_REEXEC"):
        os.environ["TL_SVG_REEXEC"] = "1"
        os.execv(TL_PY, [TL_PY, __file__] + sys.argv[1:])
    sys.exit("tensor_layouts[viz] is not importable; install it with\n"
             "  python3 -m venv .venv-tl && "
             ".venv-tl/bin/pip install 'tensor-layouts[viz]==0.3.2'\n"
             "or point $TL_PYTHON at an interpreter that has it")


def time_cmd(cmd, runs, warmup, use_hyperfine, label):
    """Median wall seconds of `cmd` (a list) as a whole process."""
    if use_hyperfine:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tf:
            jpath = tf.name
        hcmd = ["hyperfine", "-N", "--style", "none", "--runs", str(runs),
                "--warmup", str(warmup), "--export-json", jpath,
                " ".join(shlex_quote(c) for c in cmd)]
        subprocess.run(hcmd, check=True, stdout=subprocess.DEVNULL)
        with open(jpath) as f:
            res = json.load(f)["results"][0]
        os.unlink(jpath)
        return {"median": res["median"], "mean": res["mean"], "stddev": res.get("stddev"),
                "min": res["min"], "max": res["max"], "runs": len(res["times"]),
                "tool": "hyperfine"}
    for _ in range(warmup):
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t0)
    return {"median": statistics.median(ts), "mean": statistics.mean(ts),
            "stddev": statistics.stdev(ts) if len(ts) > 1 else None,
            "min": min(ts), "max": max(ts), "runs": len(ts), "tool": "subprocess"}


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


def tl_cell_count(path):
    """Cells in a tensor-layouts SVG: matplotlib patches with a black edge (cells are
    Rectangle(edgecolor='black'); the figure background has no stroke)."""
    text = Path(path).read_text()
    return len(re.findall(r'<g id="patch_\d+">\s*<path [^>]*style="[^"]*stroke: #000000', text))


def ours_cells(path):
    text = Path(path).read_text()
    cells = {}
    # Cells are <g class="cell" ...> (with text) or <rect class="cell" .../> (overview); the
    # swizzle view draws before/after panels: the "after" (or the only layout) panel counts.
    panels = re.split(r'<g class="panel"', text)
    body = next((p for p in panels if 'data-panel="after"' in p[:200]), None) or next(
        p for p in panels if 'data-panel="layout"' in p[:200])
    for m in re.finditer(r'<(?:g|rect) class="cell"([^>]*)>', body):
        attrs = dict(re.findall(r'data-(\w+)="(-?\d+)"', m.group(1)))
        cells[(int(attrs["row"]), int(attrs["col"]))] = int(attrs["offset"])
    return cells


def check_same(case, tl_svg, our_svg):
    from tensor_layouts import idx2crd, mode, size
    lay = tl_layout(case)
    rows, cols = size(mode(lay.shape, 0)), size(mode(lay.shape, 1))
    n_tl = tl_cell_count(tl_svg)
    ours = ours_cells(our_svg)
    bad = 0
    for r in range(rows):
        rc = idx2crd(r, mode(lay.shape, 0))
        for c in range(cols):
            if ours.get((r, c)) != lay((rc, idx2crd(c, mode(lay.shape, 1)))):
                bad += 1
    return {"cells_expected": rows * cols, "cells_tl_svg": n_tl, "cells_ours_svg": len(ours),
            "offsets_differing": bad,
            "same": n_tl == rows * cols == len(ours) and bad == 0}


def fmt_s(x):
    return "%.3f s" % x if x >= 1 else "%.1f ms" % (x * 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--render", default=str(REPO / "target" / "release" / "render"))
    ap.add_argument("--build", action="store_true",
                    help="cargo build --release -p cute-render first")
    ap.add_argument("--cases", default=",".join(CASES),
                    help="comma list of %s" % ", ".join(CASES))
    ap.add_argument("--runs", type=int, default=10, help="runs per small case (and ours)")
    ap.add_argument("--big-runs", type=int, default=3,
                    help="tensor-layouts runs for the 256x256 cases (~35-95 s each)")
    ap.add_argument("--no-hyperfine", action="store_true")
    ap.add_argument("--out-dir", help="where the SVGs go (default: a temp dir, kept)")
    ap.add_argument("--json", metavar="OUT", help="write the results to OUT")
    args = ap.parse_args()

    if args.build:
        subprocess.run(["cargo", "build", "--release", "-p", "cute-render"], cwd=REPO, check=True)
    if not os.path.exists(args.render):
        sys.exit("%s not found: cargo build --release -p cute-render (or --build)" % args.render)
    use_hf = shutil.which("hyperfine") is not None and not args.no_hyperfine
    out_dir = Path(args.out_dir or tempfile.mkdtemp(prefix="tensor_layouts_svg_"))
    out_dir.mkdir(parents=True, exist_ok=True)
    import matplotlib
    import tensor_layouts
    print("tensor-layouts %s, matplotlib %s, Python %s; render %s; timing: %s; %d CPUs"
          % (tensor_layouts.__version__, matplotlib.__version__, sys.version.split()[0],
             args.render, "hyperfine -N" if use_hf else "subprocess", os.cpu_count()))
    print("SVGs in %s" % out_dir)

    results = []
    for case in [c.strip() for c in args.cases.split(",") if c.strip()]:
        if case not in CASES:
            sys.exit("unknown case %r" % case)
        expr = CASES[case][0]
        tl_svg, our_svg = out_dir / ("tl-%s.svg" % case), out_dir / ("ours-%s.svg" % case)
        tl_cmd = [sys.executable, str(Path(__file__).resolve()), "--tl-draw", case, str(tl_svg)]
        our_cmd = [args.render, str(our_svg), "--expr", expr]
        big = case in BIG
        print("\n[%s] %s%s" % (case, expr, "  (tensor-layouts: cell_labels=False)"
                                if CASES[case][2] else ""), flush=True)
        t_ours = time_cmd(our_cmd, max(args.runs, 3), 1, use_hf, "ours")
        print("  ours           median %s (%d runs)" % (fmt_s(t_ours["median"]), t_ours["runs"]),
              flush=True)
        tl_runs = args.big_runs if big else args.runs
        t_tl = time_cmd(tl_cmd, tl_runs, 0 if big else 1, use_hf, "tl")
        print("  tensor-layouts median %s (%d runs)" % (fmt_s(t_tl["median"]), t_tl["runs"]),
              flush=True)
        chk = check_same(case, tl_svg, our_svg)
        r = {"case": case, "expr": expr, "tl_kwargs": CASES[case][2],
             "ours": t_ours, "tensor_layouts": t_tl,
             "ratio_tl_over_ours": t_tl["median"] / t_ours["median"],
             "bytes_ours": our_svg.stat().st_size, "bytes_tl": tl_svg.stat().st_size,
             "check": chk}
        results.append(r)
        print("  ratio %.0fx; sizes ours %.2f MB, tensor-layouts %.2f MB; cells %d/%d/%d, "
              "offsets differing %d -> %s"
              % (r["ratio_tl_over_ours"], r["bytes_ours"] / 1e6, r["bytes_tl"] / 1e6,
                 chk["cells_expected"], chk["cells_ours_svg"], chk["cells_tl_svg"],
                 chk["offsets_differing"], "same layout" if chk["same"] else "DIFFERENT"),
              flush=True)

    print("\n%-15s %12s %16s %8s %10s %10s %6s" % ("case", "ours", "tensor-layouts", "ratio",
                                                   "ours MB", "tl MB", "same"))
    for r in results:
        print("%-15s %12s %16s %7.0fx %10.2f %10.2f %6s"
              % (r["case"], fmt_s(r["ours"]["median"]), fmt_s(r["tensor_layouts"]["median"]),
                 r["ratio_tl_over_ours"], r["bytes_ours"] / 1e6, r["bytes_tl"] / 1e6,
                 "yes" if r["check"]["same"] else "NO"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
        print("wrote %s" % args.json)


if __name__ == "__main__":
    main()
