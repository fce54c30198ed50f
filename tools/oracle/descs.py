#!/usr/bin/env python3
"""Golden data for the GMMA/UMMA descriptors, from the real CuTe headers (host-only g++).

Writes testdata/desc-cases.jsonl: {"op", "expr", "expect"[, "msg"]}.
- make_gmma_desc: C++'s print(GmmaDescriptor), as is.
- make_umma_desc / make_instr_desc: CuTe has no printer; the probe prints the C++ struct's
  fields in the language's format (docs/expressions.md), so every value comes from C++.
- A case C++ refuses is "error"; "msg" is the first static_assert message g++ reports,
  which the language's error must contain.

Each case is one expression of the language that is also C++ (the layout part), so the
probe wraps the layout in a shared-memory tensor: make_tensor(make_smem_ptr(T*), layout).

Run: ORACLE_DIR=oracle-work python3 tools/oracle/descs.py [-j 2]
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "testdata/desc-cases.jsonl")

# More g++ flags (the collective builders' headers need -fpermissive).
EXTRA_FLAGS = []
HEADERS = """#include <cstdio>
#include <cstdlib>
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_traits_sm90_tma_swizzle.hpp>
using namespace cute;
alignas(1024) static unsigned char smem_buf[1 << 20];
template <class T> T* buf() { return reinterpret_cast<T*>(smem_buf); }
"""

UMMA_SMEM_PRINT = r"""
  printf("UMMA::SmemDescriptor: 0x%016llx\n", (unsigned long long)d.desc_);
  printf("  start_addr :  0x%04x\n", (unsigned)d.start_address_);
  printf("  leading_off:  0x%04x (%u)\n", (unsigned)d.leading_byte_offset_, (unsigned)d.leading_byte_offset_);
  printf("  stride_off :  0x%04x (%u)\n", (unsigned)d.stride_byte_offset_, (unsigned)d.stride_byte_offset_);
  printf("  version    :  0x%01x\n", (unsigned)d.version_);
  printf("  base_offset:  0x%01x\n", (unsigned)d.base_offset_);
  printf("  lbo_mode   :  0x%01x\n", (unsigned)d.lbo_mode_);
  { unsigned t = d.layout_type_; const char* n = t == 0 ? "SWIZZLE_NONE" : t == 1 ? "SWIZZLE_128B_BASE32B" : t == 2 ? "SWIZZLE_128B" : t == 4 ? "SWIZZLE_64B" : t == 6 ? "SWIZZLE_32B" : "?";
    printf("  layout_type:  0x%01x (%s)\n", t, n); }
"""

# (name, width-name table) of the instruction descriptor's fields, as the language prints.
INSTR_PRINT = r"""
  printf("UMMA::InstrDescriptor: 0x%08x\n", (unsigned)d.desc_);
  printf("  sparse_id2 :  %u\n", (unsigned)d.sparse_id2_);
  printf("  sparse_flag:  %u (%s)\n", (unsigned)d.sparse_flag_, d.sparse_flag_ ? "sparse" : "dense");
  printf("  saturate   :  %u (%s)\n", (unsigned)d.saturate_, d.saturate_ ? "saturate" : "no saturate");
  { const char* n[] = {"F16", "F32", "S32", "?"}; printf("  c_format   :  %u (%s)\n", (unsigned)d.c_format_, n[d.c_format_]); }
  printf("  a_format   :  %u (%s)\n", (unsigned)d.a_format_, @A@);
  printf("  b_format   :  %u (%s)\n", (unsigned)d.b_format_, @B@);
  printf("  a_negate   :  %u%s\n", (unsigned)d.a_negate_, d.a_negate_ ? " (negate)" : "");
  printf("  b_negate   :  %u%s\n", (unsigned)d.b_negate_, d.b_negate_ ? " (negate)" : "");
  printf("  a_major    :  %u (%s)\n", (unsigned)d.a_major_, d.a_major_ ? "MN" : "K");
  printf("  b_major    :  %u (%s)\n", (unsigned)d.b_major_, d.b_major_ ? "MN" : "K");
  printf("  n_dim      :  %u (N = %d)\n", (unsigned)d.n_dim_, @N@);
  printf("  m_dim      :  %u (M = %d)\n", (unsigned)d.m_dim_, @M@);
  { const char* n[] = {"no shift", "8", "16", "32"}; printf("  max_shift  :  %u (%s)\n", (unsigned)d.max_shift_, n[d.max_shift_]); }
"""

# The format names the language prints (UMMA::to_UMMAFormat's enums).
FMT_NAME = {"half_t": "F16", "bfloat16_t": "BF16", "tfloat32_t": "TF32", "uint8_t": "UINT8",
            "int8_t": "INT8", "float_e4m3_t": "E4M3", "float_e5m2_t": "E5M2"}

BITS = {"half_t": 16, "bfloat16_t": 16, "float": 32, "tfloat32_t": 32, "int8_t": 8,
        "uint8_t": 8, "float_e4m3_t": 8, "double": 64}


class Case:
    def __init__(self, op, expr, cpp):
        self.op, self.expr, self.cpp = op, expr, cpp
        self.expect, self.msg, self.runtime = None, None, None


def golden_row(c):
    """A case's line of golden data: its op and expression, what C++ printed, and where C++
    refused it, the error's message or (compiled, then stopped) the run-time assert."""
    row = {"op": c.op, "expr": c.expr, "expect": c.expect}
    if c.msg:
        row["msg"] = c.msg
    if c.runtime:
        row["assert"] = c.runtime
    return row


def st(n):
    return "_%d" % n if n >= 0 else "Int<%d>" % n


def static_layout(shape, stride):
    def t(x):
        if isinstance(x, int):
            return "Int<%d>" % x
        return "Shape<%s>" % ",".join(t(y) for y in x)
    def d(x):
        if isinstance(x, int):
            return "Int<%d>" % x
        return "Stride<%s>" % ",".join(d(y) for y in x)
    return "Layout<%s,%s>{}" % (t(shape), d(stride))


def smem_case(fam, major, layout_expr, ty, plain=False):
    """make_{gmma,umma}_desc<major>(layout[, T])."""
    ns = "GMMA" if fam == "gmma" else "UMMA"
    fn = "make_%s_desc" % fam
    targ = "%s::Major::%s" % (ns, major)
    expr = "%s%s<%s>(%s%s)" % ("UMMA::" if fam == "umma" else "", fn, targ, layout_expr,
                               ", %s" % ty if plain else "")
    call = "%s::%s<%s>(t)" % (ns, fn, targ)
    body = "  auto t = make_tensor(make_smem_ptr(buf<%s>()), %s);\n" % (ty, layout_expr)
    if fam == "gmma":
        body += "  print(%s); printf(\"\\n\");\n" % call
    else:
        body += "  auto d = %s;\n%s" % (call, UMMA_SMEM_PRINT)
    return Case(fn, expr, body)


def instr_case(a, b, c, m, n, am, bm, extra=()):
    targs = [a, b, c, str(m), str(n), "UMMA::Major::" + am, "UMMA::Major::" + bm] + list(extra)
    expr = "UMMA::make_instr_desc<%s>()" % ", ".join(targs)
    body = "  auto d = UMMA::make_instr_desc<%s>();\n" % ", ".join(targs)
    body += (INSTR_PRINT.replace("@A@", '"%s"' % FMT_NAME.get(a, "?"))
             .replace("@B@", '"%s"' % FMT_NAME.get(b, "?"))
             .replace("@N@", str(n)).replace("@M@", str(m)))
    return Case("make_instr_desc", expr, body)


def atom_name(fam, major, sw, ty):
    ns = "GMMA" if fam == "gmma" else "UMMA"
    return "%s::Layout_%s_%s_Atom<%s>{}" % (ns, major, sw, ty)


def atom_shape(major, sw, bits):
    """(MN, K) of a smem atom in elements."""
    width = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024, "SW128_32B": 1024}[sw] // bits
    rows = 4 if sw == "SW128_32B" else 8
    return (width, rows) if major == "MN" else (rows, width)


def cases():
    out = []
    types = ["half_t", "float", "int8_t"]
    # Canonical per-instruction blocks cut from tiles of every atom, both orders, both
    # descriptor majors (the wrong one is mostly refused).
    for fam in ["gmma", "umma"]:
        for ty in types:
            bits = BITS[ty]
            kdense = 256 // bits
            sws = ["INTER", "SW32", "SW64", "SW128"] + (["SW128_32B"] if fam == "umma" and bits == 32 else [])
            for amajor in ["K", "MN"]:
                for sw in sws:
                    if sw == "SW128_32B" and amajor == "K":
                        continue
                    amn, ak = atom_shape(amajor, sw, bits)
                    for tmn_mul, tk_mul in [(1, 1), (2, 1), (4, 2)]:
                        tmn = max(amn * tmn_mul, 64)
                        tk = max(ak * tk_mul, kdense * 2)
                        tmn = -(-tmn // amn) * amn
                        tk = -(-tk // ak) * ak
                        for order in ["", ", Step<_2,_1>{}"]:
                            tile = "tile_to_shape(%s, Shape<%s,%s>{}%s)" % (
                                atom_name(fam, amajor, sw, ty), st(tmn), st(tk), order)
                            for bmn in sorted({min(64, tmn), 8 if tmn >= 8 else tmn}) if order == "" else [min(64, tmn)]:
                                block = "composition(%s, make_tile(%s{}, %s{}))" % (tile, st(bmn), st(kdense))
                                for dmajor in ["K", "MN"]:
                                    if dmajor != amajor and (tmn_mul, tk_mul, bmn) != (1, 1, 64):
                                        continue
                                    out.append(smem_case(fam, dmajor, block, ty))
                            # The whole tile (K too long for one instruction: refused).
                            if order == "" and (tmn_mul, tk_mul) == (2, 1):
                                out.append(smem_case(fam, amajor, tile, ty))
    # Plain (interleaved) layouts with hand-written strides, in 16-byte units times T.
    import random
    rng = random.Random(12)
    for fam in ["gmma", "umma"]:
        for ty in ["half_t", "float", "int8_t"]:
            t = 128 // BITS[ty]
            for _ in range(8):
                m = rng.choice([1, 2, 4, 8])
                sbo = rng.choice([2, 4, 8, 16, 64, 128, 1024, 20000])
                lbo = rng.choice([1, 8, 16, 64, 256])
                # K-major: ((8,m),(T,2)):((T,SBO*T),(1,LBO*T))
                k_shape = ((8, m), (t, 2))
                k_stride = ((t, sbo * t), (1, lbo * t))
                out.append(smem_case(fam, "K", static_layout(k_shape, k_stride), ty, plain=True))
                # MN-major: ((T,1,m),(8,k)):((1,T,SBO*T),(T,LBO*T))
                kk = 256 // BITS[ty] // 8 if fam == "gmma" else rng.choice([1, 2])
                mn_shape = ((t, m), (8, max(kk, 1)))
                mn_stride = ((1, sbo * t), (t, lbo * t))
                out.append(smem_case(fam, "MN", static_layout(mn_shape, mn_stride), ty, plain=True))
                # A wrong stride somewhere.
                bad = ((rng.choice([2 * t, 4 * t, 3 * t]), sbo * t), (1, lbo * t))
                out.append(smem_case(fam, "K", static_layout(k_shape, bad), ty, plain=True))
    # Swizzles the descriptors refuse (element-unit swizzles are refused by the language
    # before C++ would be asked, so only pointer swizzles here).
    for fam in ["gmma", "umma"]:
        for (b, m, s) in [(3, 3, 3), (2, 5, 2), (3, 4, 4), (1, 5, 2), (2, 6, 2), (4, 4, 3)]:
            lay = "make_composed_layout(Swizzle<%d,%d,%d>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_64,_16>,Stride<_64,_1>>{})" % (b, m, s)
            lay_mn = "make_composed_layout(Swizzle<%d,%d,%d>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_64,_16>,Stride<_1,_64>>{})" % (b, m, s)
            out.append(smem_case(fam, "K", lay, "half_t"))
            out.append(smem_case(fam, "MN", lay_mn, "half_t"))
    # Rank != 2.
    for fam in ["gmma", "umma"]:
        out.append(smem_case(fam, "K", "tile_to_shape(%s, Shape<_64,_16,_2>{})" % atom_name(fam, "K", "SW32", "half_t"), "half_t"))
    # Instruction descriptors.
    combos = [("half_t", "half_t", "float"), ("half_t", "half_t", "half_t"),
              ("bfloat16_t", "bfloat16_t", "float"), ("tfloat32_t", "tfloat32_t", "float"),
              ("int8_t", "int8_t", "int32_t"), ("uint8_t", "int8_t", "int32_t"),
              ("float_e4m3_t", "float_e5m2_t", "float"), ("float_e5m2_t", "float_e4m3_t", "half_t")]
    for (a, b, c) in combos:
        for m in [64, 128, 256]:
            for n in [8, 16, 24, 64, 128, 200, 256]:
                for am, bm in [("K", "K"), ("MN", "K"), ("K", "MN"), ("MN", "MN")]:
                    if (n, am, bm) not in [(8, "K", "K"), (64, "MN", "K"), (128, "K", "MN"), (256, "MN", "MN"),
                                           (16, "K", "K"), (24, "K", "MN"), (200, "K", "K")]:
                        continue
                    out.append(instr_case(a, b, c, m, n, am, bm))
    for extra in [["UMMA::ScaleIn::Neg"], ["UMMA::ScaleIn::One", "UMMA::ScaleIn::Neg"],
                  ["UMMA::ScaleIn::One", "UMMA::ScaleIn::One", "UMMA::Saturate::True"],
                  ["UMMA::ScaleIn::One", "UMMA::ScaleIn::One", "UMMA::Saturate::False", "true"],
                  ["UMMA::ScaleIn::Neg", "UMMA::ScaleIn::Neg", "UMMA::Saturate::False", "false", "UMMA::MaxShift::MaxShift16"]]:
        out.append(instr_case("half_t", "half_t", "float", 128, 128, "K", "K", extra))
        out.append(instr_case("int8_t", "uint8_t", "int32_t", 64, 32, "K", "MN", extra))
    # Types UMMA has no format for.
    for (a, b, c) in [("float", "float", "float"), ("half_t", "half_t", "double"), ("double", "double", "double")]:
        out.append(instr_case(a, b, c, 128, 128, "K", "K"))
    return unique(out)


def unique(cases):
    """The cases with each expression once, in their order."""
    seen, uniq = set(), []
    for c in cases:
        if c.expr not in seen:
            seen.add(c.expr)
            uniq.append(c)
    return uniq


class Oracle:
    def __init__(self, oracle_dir, tmp):
        d = oracle_dir
        self.inc = ["-I%s/nvcc/nvidia/cuda_nvcc/include" % d,
                    "-I%s/cudart/nvidia/cuda_runtime/include" % d,
                    "-I%s/cccl/nvidia/cuda_cccl/include" % d,
                    "-I%s/cutlass/cutlass_library/source/include" % d]
        self.tmp = tmp
        self.n = 0
        self.lock = threading.Lock()

    def compile_run(self, cs):
        """Compile and run cases; on failure, the indices g++'s diagnostics point at."""
        with self.lock:
            self.n += 1
            n = self.n
        src = os.path.join(self.tmp, "d%05d.cpp" % n)
        exe = src[:-4]
        lines = HEADERS.count("\n")
        spans = []
        with open(src, "w") as f:
            f.write(HEADERS)
            for i, c in enumerate(cs):
                text = "static void f%d() {\n%s}\n" % (i, c.cpp)
                spans.append((lines + 1, lines + text.count("\n")))
                lines += text.count("\n")
                f.write(text)
            f.write("int main(int argc, char** argv) {\n  int only = argc > 1 ? atoi(argv[1]) : -1;\n")
            for i, _ in enumerate(cs):
                f.write('  if (only < 0 || only == %d) { printf("@@%d\\n"); fflush(stdout); f%d(); fflush(stdout); }\n' % (i, i, i))
            f.write("}\n")
        p = subprocess.run(["g++", "-std=c++17", "-O0", "-w"] + EXTRA_FLAGS + self.inc + [src, "-o", exe],
                           capture_output=True, text=True)
        if p.returncode != 0:
            bad = set()
            for m in re.finditer(re.escape(os.path.basename(src)) + r":(\d+):", p.stderr):
                ln = int(m.group(1))
                for i, (a, b) in enumerate(spans):
                    if a <= ln <= b:
                        bad.add(i)
            return None, (p.stderr, bad)
        r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            # A run-time assert: run the cases one by one; the failing ones are errors.
            out = []
            for i, c in enumerate(cs):
                ri = subprocess.run([exe, str(i)], capture_output=True, text=True, timeout=60)
                if ri.returncode != 0:
                    m = re.search(r"Assertion `(.*)' failed", ri.stderr)
                    c.expect, c.msg = "error", None
                    c.runtime = m.group(1) if m else ri.stderr.strip()[:200]
                    out.append("@@%d\n" % i)
                else:
                    out.append(ri.stdout)
            os.remove(exe)
            return "".join(out), None
        os.remove(exe)
        return r.stdout, None

    def batch(self, cs):
        out, err = self.compile_run(cs)
        if out is None:
            stderr, bad = err
            if len(cs) == 1:
                m = re.search(r"static assertion failed: (.*)", stderr)
                cs[0].expect = "error"
                cs[0].msg = m.group(1).strip() if m else None
                return
            if not bad:
                h = len(cs) // 2
                self.batch(cs[:h])
                self.batch(cs[h:])
                return
            for i in sorted(bad):
                self.batch([cs[i]])
            rest = [c for i, c in enumerate(cs) if i not in bad]
            if rest:
                self.batch(rest)
            return
        parts = re.split(r"^@@(\d+)\n", out, flags=re.M)
        res = {}
        for k in range(1, len(parts), 2):
            kept = [l for l in parts[k + 1].splitlines()
                    if not l.startswith("ERROR: cast_smem_ptr_to_uint")]
            # Static integers print as _N; the language prints N.
            res[int(parts[k])] = re.sub(r"(?<![A-Za-z0-9])_(-?\d)", r"\1",
                                        "\n".join(kept).rstrip("\n"))
        for i, c in enumerate(cs):
            if c.expect != "error":
                c.expect = res[i]


def tmem_cases():
    """partition_fragment_C of SM100 UMMA TiledMMAs: the accumulator in TMEM (the 1-SM TS
    ops allocate it NonInterleaved, M=64 repeats in columns); of the TS ops, A in TMEM too
    (partition_fragment_A)."""
    out = []
    fams = [("F16BF16", "half_t", ["float", "half_t"], 16), ("TF32", "tfloat32_t", ["float"], 8),
            ("S8", "int8_t", ["int32_t"], 32)]
    for src in ["SS", "TS"]:
        for fam, ab, cs, k in fams:
            for c in cs:
                for two in [False, True]:
                    ms = [128, 256] if two else [64, 128]
                    for m in ms:
                        for n in [32, 64, 128, 256]:
                            op = "SM100_MMA_%s%s_%s<%s, %s, %s, %d, %d, UMMA::Major::K, UMMA::Major::K>" % (
                                fam, "_2x1SM" if two else "", src, ab, ab, c, m, n)
                            for (rm, rn) in [(1, 1), (2, 1), (1, 2), (2, 2), (4, 2)] + ([(1, 4)] if src == "TS" else []):
                                shape = "Shape<%s,%s>{}" % (st(m * rm), st(n * rn))
                                expr = "partition_fragment_C(make_tiled_mma(%s{}), %s)" % (op, shape)
                                body = "  print(%s); printf(\"\\n\");\n" % expr
                                out.append(Case("partition_fragment_C", expr, body))
                            if src == "TS" and n in (64, 256):
                                for (rm, rk) in [(1, 1), (2, 1), (1, 2), (2, 4)]:
                                    shape = "Shape<%s,%s>{}" % (st(m * rm), st(k * rk))
                                    expr = "partition_fragment_A(make_tiled_mma(%s{}), %s)" % (op, shape)
                                    body = "  print(%s); printf(\"\\n\");\n" % expr
                                    out.append(Case("partition_fragment_A", expr, body))
    return out


TMA_PRINT = r"""
  { auto b = int(cute::detail::get_tma_swizzle_bits(L)); auto s = int(cute::detail::get_tma_swizzle_base(L));
    // to_CUtensorMapSwizzle (SmemSwizzleBits DISABLE/B32/B64/B128 = 0..3, SmemSwizzleBase 16B/32B/32B_FLIP_8B/64B = 0..3)
    const char* n = s == 0 ? (b == 0 ? "NONE" : b == 1 ? "32B" : b == 2 ? "64B" : "128B")
                  : (b == 3 && s == 1) ? "128B_ATOM_32B" : (b == 3 && s == 3) ? "128B_ATOM_64B" : "?";
    printf("CU_TENSOR_MAP_SWIZZLE_%s\n", n); }
"""


def tma_cases():
    """tma_swizzle(L): the CUtensorMapSwizzle make_tma_copy picks for a smem layout."""
    out = []
    for ty in ["half_t", "float", "int8_t"]:
        for ns in ["GMMA", "UMMA"]:
            for major in ["K", "MN"]:
                for sw in ["INTER", "SW32", "SW64", "SW128", "SW128_32B"]:
                    if sw == "SW128_32B" and (ns == "GMMA" or major == "K"):
                        continue
                    mn, k = atom_shape(major, sw, BITS[ty])
                    for rep in [(1, 1), (2, 4)]:
                        lay = "tile_to_shape(%s::Layout_%s_%s_Atom<%s>{}, Shape<%s,%s>{})" % (
                            ns, major, sw, ty, st(mn * rep[0]), st(k * rep[1]))
                        out.append(Case("tma_swizzle", "tma_swizzle(%s)" % lay,
                                        "  auto L = %s;\n%s" % (lay, TMA_PRINT)))
    for (b, m, s) in [(0, 4, 3), (1, 4, 3), (3, 4, 3), (3, 3, 3), (2, 3, 3), (1, 2, 3), (2, 5, 2),
                      (2, 6, 2), (2, 6, 3), (2, 5, 3), (3, 5, 2), (1, 6, 2), (3, 4, 4), (4, 4, 4),
                      (0, 5, 0), (3, 7, 3)]:
        for flag in ["smem_ptr_flag_bits<16>{}", "_0{}"]:
            lay = "make_composed_layout(Swizzle<%d,%d,%d>{}, %s, Layout<Shape<_64,_64>,Stride<_64,_1>>{})" % (b, m, s, flag)
            out.append(Case("tma_swizzle", "tma_swizzle(%s)" % lay, "  auto L = %s;\n%s" % (lay, TMA_PRINT)))
    for lay in ["Layout<Shape<_64,_64>,Stride<_64,_1>>{}", "Layout<Shape<_128,_32>,Stride<_1,_128>>{}"]:
        out.append(Case("tma_swizzle", "tma_swizzle(%s)" % lay, "  auto L = %s;\n%s" % (lay, TMA_PRINT)))
    return out


TMA_BOX_PRINT = r"""
  auto t = make_tensor(make_gmem_ptr((TT*)nullptr), G);
  auto tma = make_tma_copy(SM90_TMA_LOAD{}, t, S);
  print(typename decltype(tma)::Traits::AuxParams::TmaGmemBasis{}); printf("\n");
"""


def tma_box_cases():
    """make_tma_copy(gmem, smem): the box (TmaGmemBasis) CuTe derives."""
    out = []
    def add(g, gcpp, s, ty, plain=False):
        expr = "make_tma_copy(%s, %s%s)" % (g, s, ", %s" % ty if plain else "")
        body = "  auto G = %s;\n  auto S = %s;\n%s" % (gcpp, s, TMA_BOX_PRINT.replace("TT", ty))
        out.append(Case("make_tma_copy", expr, body))
    for ty in ["half_t", "float", "int8_t"]:
        bits = BITS[ty]
        for sw in ["INTER", "SW32", "SW64", "SW128"]:
            for major in ["K", "MN"]:
                mn, k = atom_shape(major, sw, bits)
                for (tm, tk) in [(mn * 2, k * 2), (128, 64) if major == "K" else (128, 64)]:
                    tm = -(-tm // mn) * mn
                    tk = -(-tk // k) * k
                    smem = "tile_to_shape(GMMA::Layout_%s_%s_Atom<%s>{}, Shape<%s,%s>{})" % (major, sw, ty, st(tm), st(tk))
                    for (M, K) in [(512, 1024)]:
                        # K-major gmem (M,K):(K,1) and MN-major (M,K):(1,M); dynamic and static
                        gk = "make_layout(make_shape(%d, %d), make_stride(%d, _1{}))" % (M, K, K)
                        gm = "make_layout(make_shape(%d, %d), make_stride(_1{}, %d))" % (M, K, M)
                        sk = "Layout<Shape<%s,%s>,Stride<%s,_1>>{}" % (st(M), st(K), st(K))
                        sm = "Layout<Shape<%s,%s>,Stride<_1,%s>>{}" % (st(M), st(K), st(M))
                        for g in ([gk, sk] if major == "K" else [gm, sm]) + ([gm] if major == "K" else [gk]):
                            add(g, g, smem, ty)
    # Batched gmem (M,K,L) and plain smem tiles.
    for ty in ["half_t", "float"]:
        for (a, b) in [(64, 64), (8, 16), (16, 8), (32, 128), (128, 32), (4, 256), (2, 512)]:
            for order in ["row", "col"]:
                s = ("Layout<Shape<%s,%s>,Stride<%s,_1>>{}" % (st(a), st(b), st(b))) if order == "row" else \
                    ("Layout<Shape<%s,%s>,Stride<_1,%s>>{}" % (st(a), st(b), st(a)))
                for g in ["make_layout(make_shape(256, 1024, 3), make_stride(1024, _1{}, 262144))",
                          "Layout<Shape<_256,_1024>,Stride<_1024,_1>>{}",
                          "Layout<Shape<_256,_1024>,Stride<_1,_256>>{}"]:
                    add(g, g, s, ty, plain=True)
    return out


def run_cases(cases, default_out, batch=60):
    """The command line of a golden-data script over `cases` (Case objects): compile and
    run them against the headers, write `{"op", "expr", "expect"[, "msg"]}` lines."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--out", default=default_out)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=batch)
    a = ap.parse_args()
    cs = cases()
    with tempfile.TemporaryDirectory() as tmp:
        o = Oracle(os.path.abspath(a.oracle_dir), tmp)
        chunks = [cs[i:i + a.batch] for i in range(0, len(cs), a.batch)]
        with cf.ThreadPoolExecutor(a.j) as ex:
            list(ex.map(o.batch, chunks))
    with open(a.out, "w") as f:
        for c in cs:
            row = {"op": c.op, "expr": c.expr, "expect": c.expect}
            if c.msg:
                row["msg"] = c.msg
            f.write(json.dumps(row) + "\n")
    print("%d cases, %d errors -> %s" % (len(cs), sum(c.expect == "error" for c in cs), a.out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--out", default=OUT)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=60)
    ap.add_argument("--only", help="regenerate only these ops (comma-separated); other lines of --out are kept")
    ap.add_argument("--tma-box", action="store_true",
                    help="the TMA box cases, into tma-box-cases.jsonl")
    ap.add_argument("--tma", action="store_true",
                    help="the TMA swizzle cases, into tma-cases.jsonl")
    ap.add_argument("--tmem", action="store_true",
                    help="the TMEM accumulator cases, into tmem-cases.jsonl")
    a = ap.parse_args()
    ap_only = a.only.split(",") if a.only else None
    kinds = {"tmem": (tmem_cases, "tmem-cases.jsonl"), "tma": (tma_cases, "tma-cases.jsonl"),
             "tma_box": (tma_box_cases, "tma-box-cases.jsonl")}
    kind = next((k for k in kinds if getattr(a, k)), None)
    if kind:
        cs = kinds[kind][0]()
        if a.out == OUT:
            a.out = os.path.join(os.path.dirname(OUT), kinds[kind][1])
    else:
        cs = cases()
    kept = {}
    if ap_only:
        cs = [c for c in cs if c.op in ap_only]
        with open(a.out) as f:
            for line in f:
                row = json.loads(line)
                if row["op"] not in ap_only:
                    kept[row["expr"]] = row
    print("%d cases" % len(cs), file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        o = Oracle(a.oracle_dir, tmp)
        batches = [cs[i:i + a.batch] for i in range(0, len(cs), a.batch)]
        with cf.ThreadPoolExecutor(a.j) as ex:
            list(ex.map(o.batch, batches))
    fresh = {c.expr: golden_row(c) for c in cs}
    # In the order of the full case list, so partial reruns leave the file as a full run.
    order = [c.expr for c in (kinds[kind][0]() if kind else cases())]
    with open(a.out, "w") as f:
        for e in order:
            row = fresh.get(e) or kept.get(e)
            if row:
                f.write(json.dumps(row) + "\n")
    errs = sum(c.expect == "error" for c in cs)
    print("wrote %d cases (%d errors) to %s" % (len(fresh) + len(kept), errs, a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
