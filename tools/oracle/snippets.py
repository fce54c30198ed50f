#!/usr/bin/env python3
"""Snippet corpus checker for CuTe Layout Explorer.

`testdata/snippets.jsonl` holds real multi-line snippets of
layout-building code taken from the CUTLASS sources (C++ and CuTeDSL Python), one
JSON object per line:

  {"name", "source", "lang": "cpp"|"python", "code", "expect", "cpp"}

`cpp` is the C++ function body that is compiled against the real CuTe headers (the
"oracle", see README.md in this directory) to obtain `expect`: for a C++ entry it
contains `code` verbatim (checked) followed by a `print(...)` of the last line's
value; for a CuTeDSL entry it is the hand-written C++ equivalent of the Python.
Each body is compiled as

  static void fN() { using namespace cute; <cpp> }

and its output has the `_` of static integers removed (`(_8,_32):(_32,_1)` ->
`(8,32):(32,1)`).

Default: recompile every entry and compare with `expect` (exit 1 on a mismatch or a
compile error).  `--update` rewrites `expect` from the oracle instead.
`--dsl-python PY` additionally runs every Python entry through the real CuTeDSL
(a Python with `nvidia-cutlass-dsl` installed; tracing only, no GPU needed) and
compares its print of the last value (with `S<` read as `Sw<`) with `expect`.

Python 3, stdlib only.
"""
import argparse
import ast
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_JSONL = os.path.join(REPO, "testdata", "snippets.jsonl")

# Host-only stand-ins for the CUDA builtins that the CUTLASS collective-builder headers
# mention (never called here), and the two runtime functions they reference.
PRELUDE = r"""#include <cstdio>
#include <cuda_runtime_api.h>
#include <vector_types.h>
static uint3 threadIdx, blockIdx, clusterIdx;
static dim3 gridDim, blockDim;
inline void __syncthreads() {}
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/copy_traits_sm100.hpp>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/gemm/collective/collective_builder_decl.hpp>
#include <cutlass/gemm/collective/builders/sm90_common.inl>
#include <cutlass/gemm/collective/builders/sm100_common.inl>
extern "C" cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t) { return cudaSuccess; }
extern "C" cudaError_t cudaGetLastError() { return cudaSuccess; }
using namespace cute;
"""
FLAGS = ["-std=c++17", "-O0", "-w", "-fpermissive"]

# Names the CuTeDSL snippets use without defining them (as the examples import them).
DSL_PRELUDE = """import math
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.hopper_helpers as sm90_utils
import cutlass.utils.blackwell_helpers as sm100_utils
from cutlass.cute.nvgpu import tcgen05, warp, warpgroup
"""

UNDERSCORE_INT = re.compile(r"(?<![A-Za-z0-9_])_(?=-?\d)")


# A register tensor's array lives on the host stack: C++ prints its address, the
# language `stack` (as tools/oracle/tensors.py reads it).
STACK_ADDR = re.compile(r"\(0x7ff[0-9a-f]+\)")


def strip_static(s):
    return STACK_ADDR.sub("(stack)", UNDERSCORE_INT.sub("", s))


def include_flags(oracle):
    return ["-I" + os.path.join(oracle, p) for p in (
        "nvcc/nvidia/cuda_nvcc/include", "cudart/nvidia/cuda_runtime/include",
        "cccl/nvidia/cuda_cccl/include", "cutlass/cutlass_library/source/include")]


def render_tu(entries):
    """entries: list of (idx, entry). Returns (source, {line: idx})."""
    out = [PRELUDE]
    owner = {}
    for idx, e in entries:
        start = sum(x.count("\n") for x in out) + 1
        body = textwrap.indent(e["cpp"], "  ")
        out.append("static void f%d() {\n  using namespace cute;\n%s\n}\n" % (idx, body))
        end = sum(x.count("\n") for x in out) + 1
        for ln in range(start, end + 1):
            owner[ln] = idx
    out.append("int main() {\n")
    for idx, _ in entries:
        out.append('  printf("@@%d\\n"); f%d(); printf("\\n");\n' % (idx, idx))
    out.append("  return 0;\n}\n")
    return "".join(out), owner


def compile_run(entries, oracle, tmp, tag):
    src, owner = render_tu(entries)
    cpp = os.path.join(tmp, "snip_%s.cpp" % tag)
    exe = os.path.join(tmp, "snip_%s" % tag)
    with open(cpp, "w") as f:
        f.write(src)
    p = subprocess.run(["g++"] + FLAGS + include_flags(oracle) + [cpp, "-o", exe],
                       capture_output=True, text=True)
    if p.returncode != 0:
        bad = set()
        for m in re.finditer(r"snip_%s\.cpp:(\d+):\d+: error" % re.escape(tag), p.stderr):
            ln = int(m.group(1))
            if ln in owner:
                bad.add(owner[ln])
        first = next((l for l in p.stderr.splitlines() if "error" in l), p.stderr[-300:])
        return None, bad, first
    r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    res = {}
    cur = None
    for line in r.stdout.splitlines():
        if line.startswith("@@"):
            cur = int(line[2:])
            res[cur] = []
        elif cur is not None:
            res[cur].append(line)
    return {k: "\n".join(v).strip() for k, v in res.items()}, set(), ""


def run_cpp(entries, oracle, jobs, batch, keep):
    """Returns {idx: printed} and {idx: error}."""
    tmp = tempfile.mkdtemp(prefix="cute-snippets-")
    results, errors = {}, {}
    try:
        batches = [entries[i:i + batch] for i in range(0, len(entries), batch)]
        with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = {ex.submit(compile_run, b, oracle, tmp, "b%d" % n): b
                    for n, b in enumerate(batches)}
            retry = []
            for fut in cf.as_completed(futs):
                res, bad, first = fut.result()
                if res is not None:
                    results.update(res)
                else:
                    retry.extend(futs[fut])
            # isolate failures: compile each entry of a failed batch alone
            solo = {ex.submit(compile_run, [ie], oracle, tmp, "s%d" % ie[0]): ie
                    for ie in retry}
            for fut in cf.as_completed(solo):
                res, bad, first = fut.result()
                idx = solo[fut][0]
                if res is not None:
                    results.update(res)
                else:
                    errors[idx] = first
    finally:
        if keep:
            print("kept", tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return results, errors


def dsl_last_value(code):
    """Source text of the value of the snippet's last statement."""
    tree = ast.parse(code)
    last = tree.body[-1]
    if isinstance(last, ast.Expr):
        return ast.get_source_segment(code, last.value)
    if isinstance(last, (ast.Assign, ast.AnnAssign)):
        tgt = last.targets[-1] if isinstance(last, ast.Assign) else last.target
        if isinstance(tgt, ast.Name):
            return tgt.id
    raise ValueError("last statement is neither an expression nor `name = ...`")


def run_dsl(entries, python, arch=None):
    """Runs the Python entries under CuTeDSL (trace only). Returns {idx: printed|error:..}."""
    parts = [DSL_PRELUDE]
    for idx, e in entries:
        last = dsl_last_value(e["code"])
        body = e["code"] + "\nprint('@@%d')\nprint(%s)\n" % (idx, last)
        parts.append("@cute.jit\ndef f%d():\n%s\n" % (idx, textwrap.indent(body, "    ")))
        parts.append("try:\n    cute.compile(f%d)\nexcept Exception as ex:\n"
                     "    print('@@%d'); print('error: ' + repr(ex).splitlines()[0])\n"
                     % (idx, idx))
    tmp = tempfile.mkdtemp(prefix="cute-snippets-dsl-")
    try:
        path = os.path.join(tmp, "dsl_snippets.py")
        with open(path, "w") as f:
            f.write("".join(parts))
        env = dict(os.environ, CUTE_DSL_ARCH=arch) if arch else None
        p = subprocess.run([python, path], capture_output=True, text=True, timeout=900, env=env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    res, cur = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("@@"):
            cur = int(line[2:])
            res[cur] = []
        elif cur is not None:
            res[cur].append(line)
    if not res and p.returncode != 0:
        sys.exit("CuTeDSL run failed:\n" + p.stderr[-2000:])
    return {k: "\n".join(v).strip() for k, v in res.items()}


def dsl_normalize(s):
    """CuTeDSL prints swizzles as `S<B,M,S>`, Python tuples with `, ` and a counting
    tensor as `tensor<(384,-6) o L>` (C++: `ArithTuple(384,-6) o L`)."""
    s = re.sub(r"\bS<", "Sw<", s).replace(", ", ",")
    return re.sub(r"^tensor<(\([-0-9,()]*\)) o (.*)>$", r"ArithTuple\1 o \2", s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jsonl", default=DEFAULT_JSONL)
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--update", action="store_true", help="rewrite expect from the oracle")
    ap.add_argument("--only", help="comma-separated entry names")
    ap.add_argument("-j", type=int, default=2, help="parallel g++ (default 2)")
    ap.add_argument("--batch", type=int, default=12, help="entries per translation unit")
    ap.add_argument("--dsl-python", help="python with nvidia-cutlass-dsl: also check the "
                    "CuTeDSL entries by running them")
    ap.add_argument("--keep-tmp", action="store_true")
    a = ap.parse_args()

    with open(a.jsonl) as f:
        entries = [json.loads(l) for l in f if l.strip()]
    only = set(a.only.split(",")) if a.only else None
    sel = [(i, e) for i, e in enumerate(entries) if only is None or e["name"] in only]

    problems = 0
    names = [e["name"] for e in entries]
    for n in sorted(set(x for x in names if names.count(x) > 1)):
        print("duplicate name:", n)
        problems += 1
    for i, e in sel:
        if e["lang"] == "cpp" and e["code"] not in e["cpp"]:
            print("%s: `code` does not appear verbatim in `cpp`" % e["name"])
            problems += 1

    results, errors = run_cpp(sel, a.oracle_dir, a.j, a.batch, a.keep_tmp)
    for i, e in sel:
        if i in errors:
            print("%s: compile error: %s" % (e["name"], errors[i]))
            problems += 1
            continue
        got = strip_static(results.get(i, ""))
        if a.update:
            if e.get("expect") != got:
                print("%s: expect %r -> %r" % (e["name"], e.get("expect"), got))
            e["expect"] = got
        elif e.get("expect") != got:
            print("%s: MISMATCH expect %r, oracle %r" % (e["name"], e.get("expect"), got))
            problems += 1

    if a.dsl_python:
        py = [(i, e) for i, e in sel if e["lang"] == "python"]
        # The DSL refuses SM90 warpgroup MMAs on its default target (sm_100a).
        hopper = [(i, e) for i, e in py if "sm90_utils." in e["code"] or "warpgroup." in e["code"]]
        rest = [ie for ie in py if ie not in hopper]
        dres = run_dsl(rest, a.dsl_python) if rest else {}
        if hopper:
            dres.update(run_dsl(hopper, a.dsl_python, arch="sm_90a"))
        for i, e in py:
            got = dsl_normalize(dres.get(i, "error: no output"))
            if got != e["expect"]:
                print("%s: CuTeDSL prints %r, expect %r" % (e["name"], got, e["expect"]))
                problems += 1
        print("CuTeDSL checked %d python entries" % len(py))

    if a.update:
        with open(a.jsonl, "w") as f:
            for e in entries:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")
    nc = sum(1 for _, e in sel if e["lang"] == "cpp")
    print("%d entries (%d cpp, %d python), %d problems" % (len(sel), nc, len(sel) - nc, problems))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
