#!/usr/bin/env python3
"""CuTeDSL golden lines for the Blackwell dense-GEMM helpers (`sm100_utils`).

Writes `testdata/dsl-sm100-epilogue-cases.jsonl`, one JSON object a line:

  {"op", "code", "expect"[, "msg"]}

* `code`: a CuTeDSL (Python) block as the Blackwell dense-GEMM examples write it; its
  last statement is an expression (the value printed).
* `expect`: what the real CuTeDSL printed for that value at trace time, in C++'s
  spelling (`S<3,4,3>` -> `Sw<3,4,3>`, a Python tuple's `, ` -> `,`); a copy atom is
  `ATOM|SRC|DST`, the C++ name of the `tcgen05.ld` op (`Ld32x32b`, `Repetition.x64`,
  `Pack.NONE` -> `SM100_TMEM_LOAD_32dp32b64x`) and its source and destination TV
  layouts. `error` where the DSL raised; `msg` is its message's first line.

These helpers are the DSL's own (C++'s epilogue builder picks its tile a little
differently: the DSL halves its preferred N until it divides the CTA's), so the DSL is
the oracle here. The stage lines are the Blackwell and Hopper dense-GEMM examples' stage
computations written out as top-level lines.

Where the DSL's epilogue smem layout differs from C++'s (an identity `S<0,4,3> o 0 o`
C++'s `tile_to_shape` drops; its MN_SW128_32B atom, (32,8) where C++'s is (32,4)),
`expect` is C++'s value of the same atom kind over the same tile (g++ host-only over the
headers of `tools/oracle/setup.sh`) and `dsl_differs` the DSL's.

Usage: python3 tools/oracle/dsl_sm100_epilogue.py --dsl-python PY --oracle-dir DIR
[--out FILE] (PY: a Python with `pip install nvidia-cutlass-dsl`; tracing only, no GPU;
DIR: tools/oracle/setup.sh's ORACLE_DIR; about a minute.)
"""

import argparse
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import textwrap

HEAD = r'''import json, sys, warnings
warnings.simplefilter("ignore")
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.blackwell_helpers as sm100_utils
from cutlass.cute.nvgpu import tcgen05


def _show(i, v):
    if isinstance(v, cute.CopyAtom):
        op = v.op
        s = "%s|%s|%s|%s|%s" % (type(op).__name__, op.repeat, getattr(op, "pack", None),
                                v.layout_src_tv, v.layout_dst_tv)
    else:
        s = str(v)
    print("@@%d value %s" % (i, json.dumps(s)), flush=True)

'''

ROW, COL = "utils.LayoutEnum.ROW_MAJOR", "utils.LayoutEnum.COL_MAJOR"
TYPES = ["Float16", "BFloat16", "Float32", "Float8E4M3FN", "Int8", "Float4E2M1FN", "Float6E3M2FN"]


def tile_line(cta, two, ld, d, lc, c):
    kw = ""
    if c is not None:
        kw = ", layout_c=%s, elem_ty_c=cutlass.%s" % (lc, c)
    return ("epi_tile = sm100_utils.compute_epilogue_tile_shape(%s, %s, %s, cutlass.%s%s)"
            % (cta, two, ld, d, kw))


def cases(rng):
    out = []
    ctas = [(64, n) for n in (16, 32, 64, 96, 128, 192, 256)] + \
           [(128, n) for n in (16, 32, 64, 96, 128, 160, 192, 224, 256)]
    for (cta, two, ld, d) in itertools.product(ctas, ["False", "True"], [ROW, COL], TYPES):
        for c, lc in [(None, None), (d, ld), ("Float32", COL), ("Float16", ROW)]:
            if rng.random() > 0.22:
                continue
            t = tile_line(cta, two, ld, d, lc, c)
            out.append(("compute_epilogue_tile_shape", [t, "epi_tile"]))
            for acc in ["Float32", "Float16"]:
                if acc == "Float16" and d not in ("Float16", "BFloat16"):
                    continue
                out.append(("get_tmem_load_op", [t, "sm100_utils.get_tmem_load_op(%s, %s, cutlass.%s, cutlass.%s, epi_tile, %s)"
                                                 % (cta, ld, d, acc, two)]))
            # A 6-bit epilogue's smem: the DSL tiles 128/6-element atoms, which C++ has no
            # layout for; the language refuses it (not compared).
            if d.startswith("Float6"):
                continue
            stages = rng.choice([1, 2, 4])
            smem = "sm100_utils.make_smem_layout_epi(cutlass.%s, %s, epi_tile, %d)" % (d, ld, stages)
            out.append(("make_smem_layout_epi", [t, smem], (d, ld, stages)))
            out.append(("atom_kind", [t, "sm100_utils.get_smem_layout_atom_epi(%s, cutlass.%s, epi_tile)" % (ld, d)]))
            out.append(("atom_shape", [t, "cute.product_each(cute.shape(epi_tile))"]))
            out.append(("size_in_bytes", [t, "c = " + smem, "cute.size_in_bytes(cutlass.%s, c)" % d]))
    # The dense-GEMM example's stage computation, top-level.
    for (m, n, k, ab, cd, two, use_tma) in [
            (128, 256, 64, "Float16", "Float16", False, True),
            (128, 128, 64, "BFloat16", "Float32", False, True),
            (256, 128, 64, "Float16", "Float16", True, True),
            (256, 256, 64, "Float16", "BFloat16", True, True),
            (128, 64, 128, "Float8E4M3FN", "Float16", False, True),
            (256, 192, 128, "Float8E4M3FN", "Float16", True, True),
            (128, 256, 32, "Float32", "Float32", False, True),
            (64, 128, 64, "Float16", "Float16", False, True),
            (128, 128, 64, "Float16", "Float16", False, False),
            (256, 256, 128, "Float8E5M2", "Float32", True, False),
            (128, 192, 64, "BFloat16", "BFloat16", False, True),
            (256, 64, 64, "Float16", "Float32", True, True)]:
        cg = "tcgen05.CtaGroup.TWO" if two else "tcgen05.CtaGroup.ONE"
        cta_m = m // 2 if two else m
        acc = "Float32"
        lines = [
            "tiled_mma = sm100_utils.make_trivial_tiled_mma(cutlass.%s, tcgen05.OperandMajorMode.K, tcgen05.OperandMajorMode.K, cutlass.%s, %s, (%d, %d))" % (ab, acc, cg, m, n),
            "mma_tiler_mnk = (%d, %d, %d)" % (m, n, k),
            "cta_tile_shape_mnk = (%d, %d, %d)" % (cta_m, n, k),
            "use_tma_store = %s" % use_tma,
            "epi_tile = sm100_utils.compute_epilogue_tile_shape(cta_tile_shape_mnk, %s, %s, cutlass.%s)" % (two, ROW, cd),
            "num_acc_stage = 1",
            "num_c_stage = 2 if use_tma_store else 0",
            "a_smem_layout_stage_one = sm100_utils.make_smem_layout_a(tiled_mma, mma_tiler_mnk, cutlass.%s, 1)" % ab,
            "b_smem_layout_staged_one = sm100_utils.make_smem_layout_b(tiled_mma, mma_tiler_mnk, cutlass.%s, 1)" % ab,
            "c_smem_layout_staged_one = sm100_utils.make_smem_layout_epi(cutlass.%s, %s, epi_tile, 1) if use_tma_store else None" % (cd, ROW),
            "ab_bytes_per_stage = cute.size_in_bytes(cutlass.%s, a_smem_layout_stage_one) + cute.size_in_bytes(cutlass.%s, b_smem_layout_staged_one)" % (ab, ab),
            "mbar_helpers_bytes = 1024",
            "c_bytes_per_stage = cute.size_in_bytes(cutlass.%s, c_smem_layout_staged_one) if use_tma_store else 0" % cd,
            "c_bytes = c_bytes_per_stage * num_c_stage",
            "smem_capacity = utils.get_smem_capacity_in_bytes()",
            "occupancy = 1",
            "num_ab_stage = (smem_capacity - (occupancy + 1) * (mbar_helpers_bytes + c_bytes)) // ab_bytes_per_stage",
        ]
        if use_tma:
            lines.append("num_c_stage += (smem_capacity - ab_bytes_per_stage * num_ab_stage - (occupancy + 1) * (mbar_helpers_bytes + c_bytes)) // ((occupancy + 1) * c_bytes_per_stage)")
        lines.append("(num_acc_stage, num_ab_stage, num_c_stage)")
        out.append(("compute_stages", lines))
    # The Hopper dense-GEMM example's stage computation (its arithmetic is the same on the
    # DSL's default target).
    for (m, n, k, ab) in [(128, 256, 64, "Float16"), (128, 128, 64, "BFloat16"), (64, 256, 128, "Float8E4M3FN"),
                          (128, 128, 32, "Float32")]:
        out.append(("compute_stages_sm90", [
            "tile_shape_mnk = (%d, %d, %d)" % (m, n, k),
            "a_dtype = cutlass.%s" % ab,
            "b_dtype = cutlass.%s" % ab,
            "smem_capacity = utils.get_smem_capacity_in_bytes()",
            "occupancy = 1",
            "epi_stage = 4",
            "epi_bytes = 0",
            "a_shape = cute.slice_(tile_shape_mnk, (None, 0, None))",
            "b_shape = cute.slice_(tile_shape_mnk, (0, None, None))",
            "ab_bytes_per_stage = cute.size(a_shape) * a_dtype.width // 8 + cute.size(b_shape) * b_dtype.width // 8",
            "mbar_helpers_bytes = 1024",
            "ab_stage = (smem_capacity // occupancy - mbar_helpers_bytes - epi_bytes) // ab_bytes_per_stage",
            "(ab_stage, epi_stage)"]))
    return out


CPP_T = {"Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float", "Float8E4M3FN": "float_e4m3_t",
         "Int8": "int8_t", "Float4E2M1FN": "float_e2m1_t"}


def cpp_smem_epi(kind, d, ld, stages, shape):
    """C++'s staged epilogue smem of the DSL's atom kind: UMMA's atom with offset 0 (the
    DSL's atoms carry 0 where C++'s carry the smem_ptr flag), tiled M-major or N-major."""
    atom = "UMMA::Layout_%s_Atom<%s>" % (kind, CPP_T[d])
    step = "Step<_1,_2,_3>" if ld == ROW else "Step<_2,_1,_3>"
    return ("tile_to_shape(make_composed_layout(%s{}.layout_a(), Int<0>{}, %s{}.layout_b()), "
            "make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}), %s{})" % (atom, atom, shape[0], shape[1], stages, step))


def run_cpp(exprs, include):
    """Each expression printed by the C++ headers (static `_` dropped), host-only g++."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "p.cpp")
        with open(src, "w") as f:
            f.write("#include <cute/tensor.hpp>\n#include <cute/atom/mma_traits_sm100.hpp>\nusing namespace cute;\nint main() {\n")
            for e in exprs:
                f.write("  print(%s); print(\"\\n\");\n" % e)
            f.write("}\n")
        exe = os.path.join(tmp, "p")
        subprocess.run(["g++", "-std=c++17", "-w"] + ["-I" + i for i in include] + [src, "-o", exe], check=True)
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines()
    return [re.sub(r"(?<![\w])_(\d)", r"\1", l) for l in out]


def dsl_function(i, lines):
    body = lines[:-1] + ["_show(%d, (%s))" % (i, lines[-1])]
    return ("@cute.jit\ndef _f%d():\n%s\n\n\ntry:\n    cute.compile(_f%d)\nexcept Exception as e:\n"
            "    m = str(e).strip().splitlines()\n"
            "    print('@@%d error ' + json.dumps(type(e).__name__ + (': ' + m[0] if m else '')), flush=True)\n\n"
            % (i, textwrap.indent("\n".join(body), "    "), i, i))


TMEM = {"Ld32x32bOp": "32dp32b", "Ld16x64bOp": "16dp64b", "Ld16x128bOp": "16dp128b",
        "Ld16x256bOp": "16dp256b", "Ld16x32bx2Op": "16dp32b"}


def normalise(s):
    if "|" in s:
        op, rep, pack, src, dst = s.split("|")
        n = re.match(r"Repetition\.x(\d+)$", rep).group(1)
        name = "SM100_TMEM_LOAD_%s%sx%s" % (TMEM[op], n, "_16b" if "PACK_16b" in pack else "")
        return "%s|%s|%s" % (name, src.replace(" ", ""), dst.replace(" ", ""))
    s = re.sub(r"\bS<(\d+),(\d+),(\d+)>", r"Sw<\1,\2,\3>", s)
    return s.replace(", ", ",")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsl-python", required=True)
    ap.add_argument("--oracle-dir", required=True, help="ORACLE_DIR of tools/oracle/setup.sh (the C++ headers)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", "testdata",
                                                  "dsl-sm100-epilogue-cases.jsonl"))
    args = ap.parse_args()
    cs = cases(random.Random(1234))
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(0, len(cs), 80):
            path = os.path.join(tmp, "c%d.py" % k)
            with open(path, "w") as f:
                f.write(HEAD + "".join(dsl_function(k + j, c[1]) for j, c in enumerate(cs[k:k + 80])))
            p = subprocess.run([args.dsl_python, path], capture_output=True, text=True, timeout=1800)
            for line in p.stdout.splitlines():
                m = re.match(r"@@(\d+) (value|error) (.*)$", line)
                if m:
                    res[int(m.group(1))] = (m.group(2), json.loads(m.group(3)))
            print("DSL: %d/%d" % (min(k + 80, len(cs)), len(cs)), file=sys.stderr)
    # The epilogue smem lines: C++'s value of the DSL's atom kind over the DSL's tile (the
    # DSL keeps an identity `S<0,4,3> o 0 o` C++'s tile_to_shape drops, and its
    # MN_SW128_32B atom is (32,8) where C++'s is (32,4)).
    probes = {}
    for i, c in enumerate(cs):
        if c[0] != "make_smem_layout_epi" or res.get(i, ("error",))[0] != "value":
            continue
        kind = res[i + 1][1].split(".")[-1]
        shape = [int(x) for x in re.findall(r"\d+", res[i + 2][1])]
        d, ld, stages = c[2]
        probes[i] = cpp_smem_epi(kind, d, ld, stages, shape)
    d = args.oracle_dir
    include = [d + "/nvcc/nvidia/cuda_nvcc/include", d + "/cudart/nvidia/cuda_runtime/include",
               d + "/cccl/nvidia/cuda_cccl/include", d + "/cutlass/cutlass_library/source/include"]
    cpp = dict(zip(probes, run_cpp(list(probes.values()), include)))
    n = differs = 0
    with open(args.out, "w") as f:
        for i, c in enumerate(cs):
            op, lines = c[0], c[1]
            if op in ("atom_kind", "atom_shape"):
                continue
            kind, val = res.get(i, ("error", "no output"))
            if val == "no output":
                sys.exit("case %d printed nothing: %s" % (i, lines))
            row = {"op": op, "code": "import cutlass\n" + "\n".join(lines)}
            if kind == "value":
                row["expect"] = normalise(val)
                if i in cpp and cpp[i] != row["expect"]:
                    row["dsl_differs"], row["expect"] = row["expect"], cpp[i]
                    differs += 1
            else:
                row["expect"] = "error"
                row["msg"] = val
            f.write(json.dumps(row) + "\n")
            n += 1
    print("%d lines where C++ differs from the DSL" % differs, file=sys.stderr)
    print("wrote %d lines to %s" % (n, args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
