#!/usr/bin/env python3
"""Atom golden-data generator for CuTe Layout Explorer.

Compiles C++ probes against the real CuTe headers (the "oracle", see
tools/oracle/setup.sh and README.md in this directory) and writes

  crates/cute-core/src/atoms.tsv                 the MMA / copy atom trait table
  testdata/sparse-gmma-digests.txt
                                                 digests of the sparse GMMA rows, which the
                                                 core derives from the dense rows (C++'s rule)
                                                 instead of storing them (see sparse_digests)
  testdata/atom-cases.jsonl   golden cases {"op","expr","expect"}

Every printed result has the `_` of static integers removed (`(_8,_32):(_32,_1)` ->
`(8,32):(32,1)`).  Cases that fail to compile (static_assert etc.) are isolated and
recorded as "error".  Deterministic: the case list is fixed (a seeded RNG picks a few
permutations); nothing depends on time or machine.  Python 3, stdlib only.
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_TSV = os.path.join(REPO, "crates", "cute-core", "src", "atoms.tsv")
DEFAULT_JSONL = os.path.join(REPO, "testdata", "atom-cases.jsonl")
DEFAULT_SPARSE = os.path.join(REPO, "testdata", "sparse-gmma-digests.txt")
GEN_REL = "tools/oracle/atoms.py"

R = random.Random(20250917)

HEADERS = """#include <cstdio>
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm61.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm90_gmma_sparse.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/mma_traits_sm120.hpp>
#include <cute/atom/mma_traits_sm120_sparse.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm50.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cute/atom/copy_traits_sm100.hpp>
using namespace cute;
"""
# CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED: the GMMA N not multiple of 16 (24, 40, ...) and
# N > 128 except 192/256 live in mma_traits_sm90_gmma_ext.hpp, included only with it.
DEFINES = ["-DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED"]

# ----------------------------------------------------------------------------
# atoms: NAME -> C++ operation type
# ----------------------------------------------------------------------------
MMA_SM8X = [
    "SM80_16x8x8_F16F16F16F16_TN",
    "SM80_16x8x16_F16F16F16F16_TN",
    "SM80_16x8x8_F32F16F16F32_TN",
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x8_F32BF16BF16F32_TN",
    "SM80_16x8x16_F32BF16BF16F32_TN",
    "SM80_16x8x4_F32TF32TF32F32_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM80_16x8x16_S32S8S8S32_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
    "SM80_16x8x16_S32U8U8S32_TN",
    "SM80_16x8x32_S32U8U8S32_TN",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM75_16x8x8_F32F16F16F32_TN",
    "SM70_8x8x4_F16F16F16F16_TN",
    "SM70_8x8x4_F32F16F16F32_NT",
]
GMMA_N = list(range(8, 257, 8))
GMMA_KINDS = ["F16F16F16_SS", "F32F16F16_SS", "F16F16F16_RS", "F32F16F16_RS"]
MAJ = {"K": "GMMA::Major::K", "MN": "GMMA::Major::MN"}


def gmma_name(n, kind):
    return "SM90_64x%dx16_%s" % (n, kind)


def gmma_cpp(n, kind, a="K", b="K"):
    return "SM90_64x%dx16_%s<%s,%s>" % (n, kind, MAJ[a], MAJ[b])


# MMA / COPY: the base atoms (the first rows of the table, in this order) and the atoms the
# golden cases of atom-cases.jsonl are built from.  The rest of the table (EXTRA_*, appended
# after the base rows) is discovered from the headers by extra_atoms().
MMA = {}  # NAME -> C++ type (ordered)
for _n in MMA_SM8X:
    MMA[_n] = _n
for _n in GMMA_N:
    for _k in GMMA_KINDS:
        MMA[gmma_name(_n, _k)] = gmma_cpp(_n, _k)

COPY = {}
for _n in ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N",
           "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T",
           "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N",
           "SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T"]:
    COPY[_n] = _n
COPY["UniversalCopy_32"] = "UniversalCopy<uint32_t>"
COPY["UniversalCopy_64"] = "UniversalCopy<uint64_t>"
COPY["UniversalCopy_128"] = "UniversalCopy<uint128_t>"

# copy atoms of the table beyond the base ones (NAME -> C++ type, in table order).
# Templated ops are stored as NAME_BITS with BITS = sizeof_bits of the template argument,
# as for UniversalCopy_128 = UniversalCopy<uint128_t>.  SM80_CP_ASYNC_CACHEGLOBAL[_ZFILL] exist
# for 128 bits only: with uint32_t / uint64_t the op fails its static_assert ("cp.async
# sizeof(TS) is not supported", cp.async.cg is 16-byte only; its Copy_Traits alone would
# print), so they are not listed.
EXTRA_COPY = {}
EXTRA_COPY["UniversalCopy_8"] = "UniversalCopy<uint8_t>"
EXTRA_COPY["UniversalCopy_16"] = "UniversalCopy<uint16_t>"
EXTRA_COPY["DefaultCopy"] = "DefaultCopy"
EXTRA_COPY["AutoVectorizingCopy"] = "AutoVectorizingCopy"
for _op, _bits in [("SM80_CP_ASYNC_CACHEALWAYS", [32, 64, 128]), ("SM80_CP_ASYNC_CACHEGLOBAL", [128]),
                   ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL", [32, 64, 128]),
                   ("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", [128])]:
    for _b in _bits:
        EXTRA_COPY["%s_%d" % (_op, _b)] = "%s<uint%d_t>" % (_op, _b)

# headers scanned for `struct MMA_Traits<OP>` (non-templated OP named SMxx_...), in this order
MMA_TRAITS_HEADERS = ["mma_traits_sm61.hpp", "mma_traits_sm70.hpp", "mma_traits_sm75.hpp",
                      "mma_traits_sm80.hpp", "mma_traits_sm89.hpp", "mma_traits_sm90.hpp"]
# dense GMMA (not the sparse headers)
GMMA_TRAITS_HEADERS = ["mma_traits_sm90_gmma.hpp", "mma_traits_sm90_gmma_ext.hpp"]


def extra_atoms(oracle_dir):
    """The MMA atoms with traits in the headers that the base list lacks, NAME -> C++ type.

    Order: the SM61..SM90 (non-GMMA) ops in header order; then the GMMA ops grouped by family
    (the kind without _SS/_RS, families in order of first appearance), N ascending, SS before
    RS.  C++ spelling of a GMMA alias: `<GMMA::Major::K,GMMA::Major::K>` where its traits take
    the majors (F16/BF16 inputs), `<>` where they take only the (defaulted) scales (TF32, FP8),
    nothing for the integer ones (plain types)."""
    inc = os.path.join(oracle_dir, "cutlass/cutlass_library/source/include/cute/atom")
    out = {}
    for h in MMA_TRAITS_HEADERS:
        with open(os.path.join(inc, h)) as f:
            for m in re.finditer(r"struct\s+MMA_Traits<\s*(SM\d+_\w+)\s*>", f.read()):
                if m.group(1) not in MMA and m.group(1) not in out:
                    out[m.group(1)] = m.group(1)
    gm = []  # (family, N, SS/RS, name, cpp)
    fam_order = []
    for h in GMMA_TRAITS_HEADERS:
        with open(os.path.join(inc, h)) as f:
            txt = f.read()
        for m in re.finditer(r"struct\s+MMA_Traits<\s*(SM90_64x(\d+)x(\d+)_(\w+?))\s*(<([^<>]*)>)?\s*>", txt):
            name, n, kind, args = m.group(1), int(m.group(2)), m.group(4), m.group(6)
            if args is None:
                cpp = name
            elif "tnspA" in args:
                cpp = "%s<%s,%s>" % (name, MAJ["K"], MAJ["K"])
            else:
                cpp = name + "<>"
            ab = "SS" if "_SS" in kind else "RS"
            fam = kind.replace("_SS", "").replace("_RS", "")
            if fam not in fam_order:
                fam_order.append(fam)
            gm.append((fam, n, ab, name, cpp))
    gm.sort(key=lambda g: (fam_order.index(g[0]), g[1], g[2] != "SS"))
    for fam, n, ab, name, cpp in gm:
        if name not in MMA and name not in out:
            out[name] = cpp
    return out


# ----------------------------------------------------------------------------
# the third table extension (rows appended after all of the above): sparse GMMA, the SM100
# SIMD FMAs, SM120 (one row per template, probed at one instance; every instance the arch
# headers specialise is checked to have the same traits), the other copy ops with traits
# (SM50 shuffles, SM75 MOVM, every op of copy_traits_sm100.hpp)
# ----------------------------------------------------------------------------
SPARSE_GMMA_HEADERS = ["mma_traits_sm90_gmma_sparse.hpp", "mma_traits_sm90_gmma_sparse_ext.hpp"]
# optional traits: printed where the op's traits define them (by NAME pattern)
MMA_OPT_TRAITS = ["ELayout", "SFALayout", "SFBLayout"]
COPY_OPT_TRAITS = ["ValID"]
F8F6F4 = ["float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t"]


def atom_dir(oracle_dir):
    return os.path.join(oracle_dir, "cutlass/cutlass_library/source/include/cute")


def new_atoms(oracle_dir):
    """(mma, copy, sm120): NAME -> C++ type for the rows of the third extension, and
    sm120 = NAME -> (namespace-qualified template, [every instance's argument list])."""
    inc = atom_dir(oracle_dir)
    mma = {}
    # sparse GMMA: SM90::GMMA::SPARSE::GMMA_64xNxK_..., family order, N, SS before RS
    gm, fam_order = [], []
    for h in SPARSE_GMMA_HEADERS:
        with open(os.path.join(inc, "atom", h)) as f:
            txt = f.read()
        for m in re.finditer(r"struct\s+MMA_Traits<\s*SM90::GMMA::SPARSE::(GMMA_64x(\d+)x(\d+)_(\w+?))\s*<([^<>]*)>\s*>", txt):
            name, n, kind, args = m.group(1), int(m.group(2)), m.group(4), m.group(5)
            q = "SM90::GMMA::SPARSE::" + name
            cpp = "%s<%s,%s>" % (q, MAJ["K"], MAJ["K"]) if "tnspA" in args else q + "<>"
            ab = "SS" if "_SS" in kind else "RS"
            fam = kind.replace("_SS", "").replace("_RS", "")
            if fam not in fam_order:
                fam_order.append(fam)
            gm.append((fam, n, ab, name, cpp))
    gm.sort(key=lambda g: (fam_order.index(g[0]), g[1], g[2] != "SS"))
    # non-templated SM100 ops (the SIMD FMAs)
    with open(os.path.join(inc, "atom", "mma_traits_sm100.hpp")) as f:
        for m in re.finditer(r"struct\s+MMA_Traits<\s*(SM\d+_\w+)\s*>", f.read()):
            mma[m.group(1)] = m.group(1)
    # SM120: the instances the arch headers specialise
    sm120 = {}
    for th in ["mma_traits_sm120.hpp", "mma_traits_sm120_sparse.hpp"]:
        with open(os.path.join(inc, "atom", th)) as f:
            for m in re.finditer(r"struct\s+MMA_Traits<\s*((?:\w+::)*)(SM120_\w+)<", f.read()):
                sm120.setdefault(m.group(2), [m.group(1) + m.group(2), []])
    for ah in ["mma_sm120.hpp", "mma_sm120_sparse.hpp"]:
        with open(os.path.join(inc, "arch", ah)) as f:
            for m in re.finditer(r"struct\s+(SM120_\w+)<([^<>]*)>\s*\{", f.read()):
                if m.group(1) in sm120:
                    args = [x.strip() for x in m.group(2).split(",")]
                    insts = [args]
                    if args[-1] == "VS":
                        insts = [args[:-1] + ["16"], args[:-1] + ["32"]]
                    sm120[m.group(1)][1].extend(insts)
    for name, (q, insts) in sm120.items():
        # the row: an F8 instance where there is one (else the first)
        pick = next((i for i in insts if i[0] == "float_e4m3_t" and i[1] == "float_e4m3_t"), insts[0])
        mma[name] = "%s<%s>" % (q, ",".join(pick))
    for fam, n, ab, name, cpp in gm:
        mma[name] = cpp
    copy = {}
    for h, pat in [("copy_traits_sm50.hpp", r"SM50_\w+"), ("copy_traits_sm75.hpp", r"SM75_\w+"),
                   ("copy_traits_sm100.hpp", r"SM100_\w+")]:
        with open(os.path.join(inc, "atom", h)) as f:
            for m in re.finditer(r"struct\s+Copy_Traits<\s*(%s)\s*>" % pat, f.read()):
                if m.group(1) not in COPY and m.group(1) not in copy:
                    copy[m.group(1)] = m.group(1)
    return mma, copy, sm120


def opt_traits(kind, name):
    """The optional traits an op of the third extension defines."""
    if kind == "copy":
        return COPY_OPT_TRAITS if ("_TMEM_" in name or "_UTCCP_" in name) else []
    out = []
    if name.startswith("GMMA_64x") or "SPARSE" in name:
        out.append("ELayout")
    if name.endswith("_VS"):
        out += ["SFALayout", "SFBLayout"]
    return out


def sm120_cases(sm120):
    """Every specialised SM120 instance's traits, to check they equal the row's."""
    cs = []
    for name, (q, insts) in sm120.items():
        for args in insts:
            t = "%s<%s>" % (q, ",".join(args))
            for tr in MMA_TRAITS + opt_traits("mma", name):
                cs.append((("sm120", name, tr, ",".join(args)),
                           "(void)sizeof(%s); print(typename MMA_Traits<%s>::%s{});" % (t, t, tr)))
    return cs


def has_majors(cpp):
    return "GMMA::Major" in cpp


def with_majors(cpp, a, b):
    return cpp.split("<")[0] + "<%s,%s>" % (MAJ[a], MAJ[b])


MMA_TRAITS = ["Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout"]
COPY_TRAITS = ["ThrID", "SrcLayout", "DstLayout", "RefLayout"]
COPY_ATOM_MEMBER = {"ThrID": "ThrID", "SrcLayout": "ValLayoutSrc", "DstLayout": "ValLayoutDst",
                    "RefLayout": "ValLayoutRef"}
BITS_T = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}

# ----------------------------------------------------------------------------
# values: ints, tuples, Lay (layout), U (underscore); render to expr and C++
# ----------------------------------------------------------------------------


class U:
    pass


US = U()


class Lay:
    def __init__(self, shape, stride=None):
        self.shape, self.stride = shape, stride  # stride None: column-major make_layout(shape)


def ex(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, U):
        return "_"
    if isinstance(v, tuple):
        return "(" + ",".join(ex(x) for x in v) + ")"
    if isinstance(v, Lay):
        return ex(v.shape) if v.stride is None else ex(v.shape) + ":" + ex(v.stride)
    raise TypeError(v)


def cx(v, kind="shape"):
    if isinstance(v, int):
        return "Int<%d>{}" % v
    if isinstance(v, U):
        return "_"
    if isinstance(v, tuple):
        return "make_%s(%s)" % (kind, ",".join(cx(x, kind) for x in v))
    if isinstance(v, Lay):
        if v.stride is None:
            return "make_layout(%s)" % cx(v.shape, "shape")
        return "make_layout(%s,%s)" % (cx(v.shape, "shape"), cx(v.stride, "stride"))
    raise TypeError(v)


def cx_tile(items):
    return "make_tile(%s)" % ",".join(cx(x) for x in items)


def ex_tile(items):
    return "(" + ",".join(ex(x) for x in items) + ")"


# ----------------------------------------------------------------------------
# compiling / running
# ----------------------------------------------------------------------------
ERROR = object()


class Oracle:
    def __init__(self, oracle_dir, jobs, tmp):
        d = oracle_dir
        self.inc = ["-I%s/nvcc/nvidia/cuda_nvcc/include" % d,
                    "-I%s/cudart/nvidia/cuda_runtime/include" % d,
                    "-I%s/cccl/nvidia/cuda_cccl/include" % d,
                    "-I%s/cutlass/cutlass_library/source/include" % d]
        self.jobs, self.tmp, self.n = jobs, tmp, 0
        self.compiles = 0
        self.errlog = []

    def _src(self, cases):
        line_of = {}
        # one case per line, recording line numbers for error attribution
        body = HEADERS.splitlines()
        for cid, stmt in cases:
            body.append("static void f%d(){ %s }" % (cid, stmt))
            line_of[len(body)] = cid
        body.append("int main(){")
        for cid, _ in cases:
            body.append('  printf("@@%d\\n"); f%d(); printf("\\n");' % (cid, cid))
        body.append("  return 0;\n}")
        return "\n".join(body) + "\n", line_of

    def _compile(self, cases):
        self.n += 1
        self.compiles += 1
        base = os.path.join(self.tmp, "probe%05d" % self.n)
        src, line_of = self._src(cases)
        with open(base + ".cpp", "w") as f:
            f.write(src)
        p = subprocess.run(["g++", "-std=c++17", "-O0", "-w"] + DEFINES + self.inc +
                           [base + ".cpp", "-o", base], capture_output=True, text=True)
        if p.returncode != 0:
            return None, p.stderr, line_of, base
        r = subprocess.run([base], capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise RuntimeError("probe %s exited %d" % (base, r.returncode))
        out = {}
        for chunk in r.stdout.split("@@")[1:]:
            head, _, rest = chunk.partition("\n")
            out[int(head)] = rest.strip("\n")
        for suffix in ("", ".cpp"):
            try:
                os.remove(base + suffix)
            except OSError:
                pass
        return out, None, line_of, base

    def run(self, cases):
        """cases: list of (id, stmt). Returns {id: output-str or ERROR}."""
        if not cases:
            return {}
        out, err, line_of, base = self._compile(cases)
        if out is not None:
            return out
        if len(cases) == 1:
            first = next((l for l in err.splitlines() if "error" in l), err[:300])
            self.errlog.append((cases[0][0], first.strip()))
            return {cases[0][0]: ERROR}
        fname = os.path.basename(base) + ".cpp"
        cand = []
        for m in re.finditer(re.escape(fname) + r":(\d+):", err):
            cid = line_of.get(int(m.group(1)))
            if cid is not None and cid not in cand:
                cand.append(cid)
        res = {}
        confirmed = set()
        bycid = dict(cases)
        if cand and len(cand) < len(cases):
            for cid, r in zip(cand, self._map(lambda c: self.run([(c, bycid[c])]), cand)):
                res.update(r)
                if r[cid] is ERROR:
                    confirmed.add(cid)
        if confirmed:
            res.update(self.run([c for c in cases if c[0] not in res]))
            return res
        h = len(cases) // 2
        a, b = self._map(self.run, [cases[:h], cases[h:]])
        a.update(b)
        return a

    def _map(self, fn, items):
        if self.jobs <= 1 or len(items) <= 1:
            return [fn(x) for x in items]
        with cf.ThreadPoolExecutor(self.jobs) as ex_:
            return list(ex_.map(fn, items))

    def run_batches(self, cases, batch):
        chunks = [cases[i:i + batch] for i in range(0, len(cases), batch)]
        res = {}
        # parallelism at chunk level; nested recursion runs sequentially inside a worker
        jobs, self.jobs = self.jobs, 1
        try:
            with cf.ThreadPoolExecutor(jobs) as pool:
                for r in pool.map(self.run, chunks):
                    res.update(r)
        finally:
            self.jobs = jobs
        return res


CLEAN = re.compile(r"^[0-9(),:\-]*$")


def clean(s):
    t = re.sub(r"_(?=-?\d)", "", s.strip())
    return t if CLEAN.match(t) else None


# ----------------------------------------------------------------------------
# case lists
# ----------------------------------------------------------------------------


def table_cases(mma_all, copy_all):
    """(key, stmt) for every trait of the table; plus the major-independence check.

    Every probe starts with `(void)sizeof(Op);`, which instantiates the operation itself: an
    op whose own static_assert fails (e.g. SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>, cp.async.cg
    is 16-byte only) is an error, even though its Copy_Traits alone would print."""
    cs = []
    for name, t in mma_all.items():
        for tr in MMA_TRAITS + opt_traits("mma", name):
            cs.append((("mma", name, tr),
                       "(void)sizeof(%s); print(typename MMA_Traits<%s>::%s{});" % (t, t, tr)))
    for name, t in copy_all.items():
        for tr in COPY_TRAITS + opt_traits("copy", name):
            cs.append((("copy", name, tr),
                       "(void)sizeof(%s); print(typename Copy_Traits<%s>::%s{});" % (t, t, tr)))
    # GMMA traits vs. major: all (A,B) majors for SS; for RS only B MN-major (an RS op with A
    # MN-major fails its static_assert "Register source operand A must have K major layout")
    for name, t in mma_all.items():
        if not has_majors(t):
            continue
        majors = [("MN", "MN"), ("K", "MN"), ("MN", "K")] if name.endswith("SS") else [("K", "MN")]
        for a, b in majors:
            for tr in MMA_TRAITS:
                u = with_majors(t, a, b)
                cs.append((("major", name, tr, a, b),
                           "(void)sizeof(%s); print(typename MMA_Traits<%s>::%s{});" % (u, u, tr)))
    return cs


def copy_atom_cases():
    cs = []
    for name, t in COPY.items():
        for bits, ty in BITS_T.items():
            for tr in COPY_TRAITS:
                e = "get(atom(%s, %d), %s)" % (name, bits, tr)
                c = "print(typename Copy_Atom<%s,%s>::%s{});" % (t, ty, COPY_ATOM_MEMBER[tr])
                cs.append(("copy_atom_trait", e, c, (name, bits)))
    return cs


TILED_MMA_ATOMS = [
    "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F16F16F16F16_TN",
    "SM80_16x8x16_F32BF16BF16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM80_16x8x32_S32S8S8S32_TN", "SM80_8x8x4_F64F64F64F64_TN",
    "SM75_16x8x8_F32F16F16F32_TN", "SM70_8x8x4_F16F16F16F16_TN", "SM70_8x8x4_F32F16F16F32_NT",
    "SM90_64x64x16_F16F16F16_SS", "SM90_64x8x16_F32F16F16_SS", "SM90_64x24x16_F16F16F16_RS",
    "SM90_64x128x16_F32F16F16_RS",
]
MNK = {}
for _n in MMA:
    m = re.match(r"SM\d+_(\d+)x(\d+)x(\d+)_", _n)
    MNK[_n] = tuple(int(x) for x in m.groups())

ATOM_LAYOUTS = [
    Lay((1, 1, 1)), Lay((2, 1, 1)), Lay((1, 2, 1)), Lay((2, 2, 1)), Lay((4, 1, 1)), Lay((1, 4, 1)),
    Lay((2, 4, 1)), Lay((4, 2, 1)), Lay((1, 1, 2)), Lay((2, 2, 2)),
    Lay((2, 2, 1), (2, 1, 0)), Lay((2, 1, 1), (1, 0, 0)), Lay((4, 2, 1), (2, 1, 0)),
    Lay((2, 2), (1, 2)), Lay((2, 2, 1), (1, 4, 0)), Lay((2, 4, 1), (4, 1, 0)),
]


def perm_layouts(size):
    """Some bijective layouts of `size` (a power of two) for a permutation mode."""
    out = [Lay(size, 1)]
    if size >= 4:
        out.append(Lay((2, size // 2), (size // 2, 1)))
    if size >= 8:
        out.append(Lay((size // 4, 2, 2), (1, size // 2, size // 4)))
    if size >= 16:
        out.append(Lay((4, size // 8, 2), (1, 8, 4)))
    return out


def tiled_mma_configs():
    cfgs = []  # (name, atomlayout, perm-or-None)
    for name in TILED_MMA_ATOMS:
        gmma = name.startswith("SM90")
        M, N, K = MNK[name]
        if not gmma:
            cfgs.append((name, Lay((1, 1, 1)), None))
            cfgs.append((name, R.choice([Lay((2, 2, 1)), Lay((2, 2, 1)), R.choice(ATOM_LAYOUTS[4:])]), None))
            tm, tn, tk = 2 * M, 2 * N, K
            perms = [(tm, 2 * tn, tk), (US, 2 * tn, US),
                     (US, R.choice(perm_layouts(2 * tn)[1:]), US),
                     (R.choice(perm_layouts(tm)[1:]), US, 2 * tk)]
            cfgs.append((name, Lay((2, 2, 1)), R.choice(perms)))
        else:
            cfgs.append((name, R.choice([Lay((1, 1, 1)), Lay((4, 1, 1))]), None))
            cfgs.append((name, Lay((2, 1, 1)), R.choice([None, (2 * M, N, K), (2 * M, 2 * N, K)])))
    A = "SM80_16x8x16_F16F16F16F16_TN"
    # the brief's examples and a few more shapes of atom layout / permutation
    cfgs += [
        (A, Lay((2, 2, 1)), (32, 32, 16)),
        (A, Lay((2, 2, 1)), (US, Lay((8, 4, 2), (1, 16, 8)), US)),
        (A, Lay((2, 2, 1)), (US, Lay((16, 2), (1, 32)), US)),
        (A, Lay((2, 2, 1), (2, 1, 0)), None),
        (A, Lay((2, 1, 1), (1, 0, 0)), None),
        (A, Lay((2, 2), (1, 2)), None),
        (A, Lay((2, 2, 2)), None),
        (A, Lay((1, 1, 2)), (16, 8, 32)),
        (A, Lay((4, 2, 1), (2, 1, 0)), (64, 32, 16)),
        (A, Lay((2, 2, 1), (1, 4, 0)), None),
        (A, Lay((2, 2, 1)), (32, 32)),          # rank-2 permutation (C++ appends _)
        (A, Lay((2, 2, 1)), (48, 16, 16)),      # M tile not a multiple of the atom tile
        (A, Lay((2, 2, 1)), (16, 16, 16)),      # M tile smaller than the atom tile
        (A, Lay((2, 2, 1)), (32, 24, 16)),
        ("SM70_8x8x4_F16F16F16F16_TN", Lay((2, 2, 1)), (16, 32)),
        ("SM70_8x8x4_F32F16F16F32_NT", Lay((2, 2, 1), (2, 1, 0)), (32, 32, 4)),
        ("SM80_8x8x4_F64F64F64F64_TN", Lay((4, 2, 1)), (US, Lay((4, 4), (4, 1)), US)),
    ]
    seen, out = set(), []
    for c in cfgs:
        k = (c[0], ex(c[1]), None if c[2] is None else ex_tile(c[2]))
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def tiled_mma_cases():
    cs = []
    for name, al, perm in tiled_mma_configs():
        op = MMA[name] + "{}"
        if perm is None:
            e = "make_tiled_mma(atom(%s), %s)" % (name, ex(al))
            c = "make_tiled_mma(%s, %s)" % (op, cx(al))
        else:
            e = "make_tiled_mma(atom(%s), %s, %s)" % (name, ex(al), ex_tile(perm))
            c = "make_tiled_mma(%s, %s, %s)" % (op, cx(al), cx_tile(perm))
        for f in ["get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV"]:
            cs.append(("tiled_mma", "%s(%s)" % (f, e), "print(%s.%s());" % (c, f), None))
        cs.append(("tiled_mma", "tile_shape(%s)" % e,
                   "auto m = %s; print(make_shape(tile_size<0>(m),tile_size<1>(m),tile_size<2>(m)));" % c,
                   None))
    return cs


def tiled_copy_configs():
    T = []
    for pre in ["SM75", "SM90"]:
        kindN = "LDSM_N" if pre == "SM75" else "STSM_N"
        kindT = "LDSM_T" if pre == "SM75" else "STSM_T"
        for x, v in [("x1", 2), ("x2", 4), ("x4", 8)]:  # v: 16-bit values per thread
            nm = "%s_U32%s_%s" % (pre, x, kindN)
            T.append((nm, 16, Lay((32, 1)), Lay((1, v))))
            T.append(R.choice([(nm, 16, Lay((16, 2), (2, 1)), Lay((1, v))),
                               (nm, 16, Lay((32, 4), (4, 1)), Lay((1, v))),
                               (nm, 16, Lay((8, 4), (4, 1)), Lay((v, 1))),
                               (nm, 32, Lay((32, 1)), Lay((1, v // 2))),
                               (nm, 8, Lay((32, 1)), Lay((1, 2 * v)))]))
        for x, v in [("x2", 2), ("x4", 4), ("x8", 8)]:
            nm = "%s_U16%s_%s" % (pre, x, kindT)
            T.append((nm, 16, Lay((32, 1)), Lay((v, 1))))
            T.append(R.choice([(nm, 16, Lay((4, 8), (8, 1)), Lay((v, 1))),
                               (nm, 16, Lay((32, 2), (2, 1)), Lay((1, v))),
                               (nm, 8, Lay((32, 1)), Lay((2 * v, 1)))]))
    # intended rejects (too few values / threads for the atom)
    T += [
        ("SM75_U32x4_LDSM_N", 16, Lay((32, 1)), Lay((1, 4))),
        ("SM75_U32x2_LDSM_N", 16, Lay((16, 1)), Lay((1, 4))),
        ("SM90_U16x8_STSM_T", 16, Lay((32, 1)), Lay((4, 1))),
        ("SM75_U16x4_LDSM_T", 16, Lay((8, 2)), Lay((4, 1))),
    ]
    for name, w in [("UniversalCopy_32", 32), ("UniversalCopy_64", 64), ("UniversalCopy_128", 128)]:
        for bits in [8, 16, 32, 64]:
            if bits > w:
                T.append((name, bits, Lay((32, 1)), Lay((1, 1))))
                continue
            v = w // bits
            T.append(R.choice([(name, bits, Lay((32, 4), (4, 1)), Lay((1, v))),
                               (name, bits, Lay((16, 8), (8, 1)), Lay((1, v))),
                               (name, bits, Lay((32, 8)), Lay((v, 1)))]))
        T.append((name, 16, Lay((4, 8), (1, 4)), Lay((2, w // 32), (w // 32, 1))))
    T += [
        ("UniversalCopy_128", 16, Lay((16, 8), (8, 1)), Lay((1, 8))),
        ("UniversalCopy_128", 16, Lay((32, 8), (8, 1)), Lay((1, 8))),
        ("UniversalCopy_128", 16, Lay((8, 32), (32, 1)), Lay((8, 1))),
        ("UniversalCopy_128", 16, Lay((16, 8)), Lay((4, 2), (2, 1))),
        ("UniversalCopy_128", 16, Lay((16, 8), (8, 1)), Lay((1, 4))),   # too few values
        ("UniversalCopy_64", 8, Lay((8, 16), (16, 1)), Lay((1, 4))),    # too few values
        ("UniversalCopy_32", 32, Lay(1), Lay(1)),
        ("UniversalCopy_32", 32, Lay((32, 4)), Lay(1)),
    ]
    seen, out = set(), []
    for c in T:
        k = (c[0], c[1], ex(c[2]), ex(c[3]))
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def tiled_copy_cases():
    cs = []
    for name, bits, thr, val in tiled_copy_configs():
        e = "make_tiled_copy(atom(%s, %d), %s, %s)" % (name, bits, ex(thr), ex(val))
        c = "make_tiled_copy(Copy_Atom<%s,%s>{}, %s, %s)" % (COPY[name], BITS_T[bits], cx(thr), cx(val))
        cs.append(("tiled_copy", "get_layoutS_TV(%s)" % e, "print(%s.get_layoutS_TV());" % c, None))
        cs.append(("tiled_copy", "get_layoutD_TV(%s)" % e, "print(%s.get_layoutD_TV());" % c, None))
        cs.append(("tiled_copy", "tile_shape(%s)" % e,
                   "print(typename decltype(%s)::Tiler_MN{});" % c, None))
    return cs


# ----------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------


def cutlass_version(oracle_dir):
    p = os.path.join(oracle_dir, "cutlass/cutlass_library/source/include/cutlass/version.h")
    v = {}
    with open(p) as f:
        for l in f:
            m = re.match(r"#define CUTLASS_(MAJOR|MINOR|PATCH)\s+(\d+)", l)
            if m:
                v[m.group(1)] = m.group(2)
    return "%s.%s.%s" % (v["MAJOR"], v["MINOR"], v["PATCH"])


def _tuple(text, i=0):
    """Parse an int-tuple literal at text[i:]: (value, next index)."""
    if text[i] == "(":
        items, i = [], i + 1
        if text[i] == ")":
            return items, i + 1
        while True:
            v, i = _tuple(text, i)
            items.append(v)
            if text[i] == ",":
                i += 1
                continue
            return items, i + 1  # ')'
    j = i
    while j < len(text) and (text[j].isdigit() or text[j] == "-"):
        j += 1
    return int(text[i:j]), j


def _congruent(a, b):
    if isinstance(a, list) != isinstance(b, list):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_congruent(x, y) for x, y in zip(a, b))
    return True


def congruent_layout(text):
    """Whether a printed layout SHAPE:STRIDE has congruent shape and stride."""
    shape, i = _tuple(text)
    stride, _ = _tuple(text, i + 1)
    return _congruent(shape, stride)


def fnv1a64(text):
    """FNV-1a, 64 bits, of the UTF-8 bytes of text."""
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


SPARSE_DIGEST_HEADER = [
    "# FNV-1a 64-bit digests of the sparse GMMA rows of atoms.tsv as C++ printed them",
    "# (\"mma<TAB>GMMA_64xNxK_...<TAB>Shape_MNK=...<TAB>ThrID=...<TAB>ALayout=...<TAB>BLayout=...",
    "# <TAB>CLayout=...<TAB>ELayout=...\"), one per row, in table order; written by tools/oracle/atoms.py.",
    "# The table stores a `derive sparse_gmma` row instead; tests/golden.rs derives every row and",
    "# checks it against these.",
]


def sparse_digests(rows):
    """(rows to store, sparse GMMA rows): the sparse GMMA rows leave the table, and the row
    `derive<TAB>sparse_gmma` stands where the first of them stood."""
    stored, sparse = [], []
    for r in rows:
        if r.startswith("mma\tGMMA_64x"):
            if not sparse:
                stored.append("derive\tsparse_gmma")
            sparse.append(r)
        else:
            stored.append(r)
    return stored, sparse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--tsv", default=DEFAULT_TSV)
    ap.add_argument("--out", default=DEFAULT_JSONL)
    ap.add_argument("--sparse-digests", default=DEFAULT_SPARSE)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=120)
    ap.add_argument("--max-copy-errors", type=int, default=1000,
                    help="copy_atom_trait: (atom,bits) pairs that fail are kept (one SrcLayout case "
                         "each) up to this many")
    ap.add_argument("--table-batch", type=int, default=300,
                    help="traits per translation unit for the table (default 300)")
    ap.add_argument("--table-only", action="store_true",
                    help="write only the table (atoms.tsv), not the golden cases")
    ap.add_argument("--keep-tmp", action="store_true")
    ap.add_argument("--errlog")
    a = ap.parse_args()

    ver = cutlass_version(a.oracle_dir)
    tmp = tempfile.mkdtemp(prefix="cute-atoms-")
    O = Oracle(a.oracle_dir, a.j, tmp)
    skipped = []
    try:
        # ---------------- 1. table ----------------
        extra_mma = extra_atoms(a.oracle_dir)
        new_mma, new_copy, sm120 = new_atoms(a.oracle_dir)
        mma_all = dict(MMA)
        mma_all.update(extra_mma)
        mma_all.update(new_mma)
        copy_all = dict(COPY)
        copy_all.update(EXTRA_COPY)
        copy_all.update(new_copy)
        tc = table_cases(mma_all, copy_all) + sm120_cases(sm120)
        ids = {i: k for i, (k, _) in enumerate(tc)}
        res = O.run_batches([(i, s) for i, (_, s) in enumerate(tc)], a.table_batch)
        val = {}
        for i, k in ids.items():
            r = res[i]
            if r is ERROR:
                val[k] = ERROR
                continue
            c = clean(r)
            if c is None:
                skipped.append(("table", k, r))
            val[k] = c if c is not None else ERROR
        # major-independence check
        major_diffs = []
        for k, v in val.items():
            if k[0] == "major":
                base = val[("mma", k[1], k[2])]
                if v is ERROR or v != base:
                    major_diffs.append((k, "error" if v is ERROR else v, base))
        # every specialised SM120 instance has the row's traits
        sm120_diffs = []
        for k, v in val.items():
            if k[0] == "sm120":
                base = val.get(("mma", k[1], k[2]))
                if v is ERROR or v != base:
                    sm120_diffs.append((k, "error" if v is ERROR else v, base))
        # rows: base MMA, base copy (the original table), then the extra MMA and copy atoms,
        # then the third extension's MMA and copy atoms
        rows, missing = [], []
        for kind, names, traits in [("mma", MMA, MMA_TRAITS), ("copy", COPY, COPY_TRAITS),
                                    ("mma", extra_mma, MMA_TRAITS), ("copy", EXTRA_COPY, COPY_TRAITS),
                                    ("mma", new_mma, MMA_TRAITS), ("copy", new_copy, COPY_TRAITS)]:
            for name in names:
                traits_n = traits + opt_traits(kind, name)
                vs = [val[(kind, name, tr)] for tr in traits_n]
                if any(x is ERROR for x in vs):
                    missing.append(name)
                    skipped.append(("table-row", name, ""))
                    continue
                # C++ prints some traits with a stride that is not congruent to the shape
                # (the U1 POPC MMAs: shape (32,2), stride ((16,8))); CuTe's layouts here
                # are congruent by construction, so such rows stay out of the table.
                bad = [t for t, x in zip(traits_n, vs) if ":" in x and not congruent_layout(x)]
                if bad:
                    skipped.append(("non-congruent", name, ",".join(bad)))
                    continue
                rows.append("%s\t%s\t%s" % (kind, name, "\t".join("%s=%s" % (t, x) for t, x in zip(traits_n, vs))))
        in_table = set(r.split("\t")[1] for r in rows)
        # GMMA families (NAME with N and _SS/_RS taken out) and the N they exist at
        fams, sp_fams = {}, {}
        for name in mma_all:
            for pat, into in [(r"SM90_64x(\d+)x(\d+)_(\w+)$", fams), (r"GMMA_64x(\d+)x(\d+)_(\w+)$", sp_fams)]:
                m = re.match(pat, name)
                if m and name in in_table:
                    fam = "64xNx%s_%s" % (m.group(2), re.sub(r"_(SS|RS)(?=_|$)", "", m.group(3)))
                    into.setdefault(fam, set()).add(int(m.group(1)))

        def n_text(ns):
            if ns == list(range(ns[0], ns[-1] + 1, 8)):
                return "N = %d, %d, ..., %d (step 8)" % (ns[0], ns[1], ns[-1])
            return "N = " + " ".join(str(n) for n in ns)

        def fam_lines(fams):
            by_n = {}
            for fam, ns in fams.items():
                by_n.setdefault(tuple(sorted(ns)), []).append(fam)
            out = []
            for ns, fl in by_n.items():
                line = "#         %s:" % n_text(list(ns))
                for fam in fl:
                    if len(line) + len(fam) > 104:
                        out.append(line)
                        line = "#           "
                    line += " " + fam
                out.append(line)
            return out

        def wrap(prefix, words, cont="#         "):
            out, line, fresh = [], prefix, True
            for w in words:
                if not fresh and len(line) + 1 + len(w) > 104:
                    out.append(line)
                    line, fresh = cont, True
                line += " " + w
                fresh = False
            out.append(line)
            return out

        gm_lines = fam_lines(fams)
        sp_lines = fam_lines(sp_fams)
        new_mma_rows = [n for n in new_mma if n in in_table]
        new_copy_rows = [n for n in new_copy if n in in_table]
        # TMEM load/store: SHAPE x REPEAT, each also _16b
        tmem = {}
        for n in new_copy_rows:
            m = re.match(r"SM100_TMEM_(LOAD|STORE)_(\d+dp\d+b)(\d+)x(_16b)?$", n)
            if m:
                tmem.setdefault((m.group(1), m.group(2), m.group(4) or ""), []).append(int(m.group(3)))
        tm_shapes = {}
        for (ld, shp, pk), reps in tmem.items():
            tm_shapes.setdefault(shp, set()).add(tuple(sorted(reps)))
        tm_words = []
        for shp, reps in tm_shapes.items():
            r = sorted(set(x for rr in reps for x in rr))
            tm_words.append("%s{%s}x" % (shp, ",".join(str(x) for x in r)))
        other_copy = [n for n in new_copy_rows if not n.startswith("SM100_TMEM_")]
        sm120_lines = []
        for name, (q, insts) in sm120.items():
            if name not in in_table:
                continue
            ab = sorted(set((i[0], i[1]) for i in insts))
            rest = sorted(set(",".join(i[2:]) for i in insts))
            a_set = sorted(set(x[0] for x in ab))
            b_set = sorted(set(x[1] for x in ab))
            full = len(ab) == len(a_set) * len(b_set)
            sm120_lines.append("#         %s = %s;" % (name, mma_all[name].replace(" ", "")))
            words = ("instances: A x B = %s x %s%s, then <%s>" % (
                "{" + ",".join(a_set) + "}", "{" + ",".join(b_set) + "}",
                "" if full else " (%d pairs)" % len(ab), "> or <".join(rest))).split(" ")
            sm120_lines += wrap("#          ", words, "#           ")
        hdr = [
            "# CuTe atom traits, generated from the CuTe C++ headers of CUTLASS %s (nvidia-cutlass PyPI wheel)" % ver,
            "# by %s (rerun: see tools/oracle/README.md); do not edit by hand." % GEN_REL,
            "# Values are cute::print of the traits with the `_` of static integers removed.",
            "# mma:  Shape_MNK ThrID ALayout BLayout CLayout of MMA_Traits<Op>, for every op with traits in",
            "#       mma_traits_sm61/70/75/80/89/90.hpp and every dense SM90 GMMA op (mma_traits_sm90_gmma.hpp",
            "#       and, with CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED, _ext.hpp); no sparse GMMA, no SM100/SM120.",
            "#       NAME is the C++ name without template arguments; the GMMA ops SM90_64xNxK_..._SS/RS[...] are",
            "#       NAME<GMMA::Major::K,GMMA::Major::K> for F16F16F16, F32F16F16, F32BF16BF16 (the traits are the",
            "#       same for every major), NAME<> for the _TN aliases with defaulted scales (TF32, FP8 E4M3/E5M2),",
            "#       NAME for the integer ones (plain types). GMMA families, written 64xNxK_TYPES[_TN[_SATURATE]]",
            "#       for the rows SM90_64xNxK_TYPES_SS[_TN[_SATURATE]] and SM90_64xNxK_TYPES_RS[_TN[_SATURATE]]:",
        ] + gm_lines + [
            "# copy: ThrID SrcLayout DstLayout RefLayout of Copy_Traits<Op> (in bits); a templated op is stored",
            "#       as NAME_BITS = NAME<uintBITS_t>: UniversalCopy_8/16/32/64/128 = UniversalCopy<uint8_t/.../uint128_t>,",
            "#       SM80_CP_ASYNC_CACHEALWAYS[_ZFILL]_32/64/128, SM80_CP_ASYNC_CACHEGLOBAL[_ZFILL]_128 (cp.async.cg",
            "#       is 16-byte only); DefaultCopy and AutoVectorizingCopy (aliases of",
            "#       AutoVectorizingCopyWithAssumedAlignment<8/128>) under their C++ names.",
            "# Third extension (%d mma + %d copy rows, after all of the above):" % (len(new_mma_rows), len(new_copy_rows)),
            "# mma:  the SM100 SIMD FMAs SM100_2x1x1_F32F32F32F32 and SM100_1x2x1_F32F32F32F32; SM120 (row NAME =",
            "#       the template, probed at the instance given; the traits of every instance the arch headers",
            "#       specialise, listed here, are checked to be the same; SFALayout/SFBLayout for the block-scaled",
            "#       _VS ones, ELayout for the sparse ones):",
        ] + sm120_lines + [
            "#       sparse GMMA SM90::GMMA::SPARSE::GMMA_64xNxK_..._SS/RS: NOT STORED. The core derives them from",
            "#       the dense rows as mma_traits_sm90_gmma_sparse.hpp builds them (K doubled, ABLayout<64|N,K>,",
            "#       ALayout_64xK, the dense CLayout, ELayout_64xK) where the row `derive sparse_gmma` stands;",
            "#       the C++ rows' FNV-1a digests are in testdata/sparse-gmma-digests.txt",
            "#       (tests/golden.rs checks every derived row against them). They are (NAME without the namespace; probed as",
            "#       NAME<GMMA::Major::K,GMMA::Major::K> or NAME<>, like the dense ones, traits checked the same for",
            "#       the other majors; ELayout is the metadata layout; K is the logical, sparse K). Families",
            "#       64xNxK_TYPES[_TN[_SATURATE]] for GMMA_64xNxK_TYPES_SS[...] and GMMA_64xNxK_TYPES_RS[...]:",
        ] + sp_lines + [
            "# copy: the SM50 shuffles, SM75_U32x1_MOVM_T and every op of copy_traits_sm100.hpp: TMEM load/store",
            "#       SM100_TMEM_{LOAD,STORE}_SHAPE{N}x[_16b] (ValID = logical bit -> TMEM bit address, lane stride",
            "#       2^21) with SHAPE{N} in:",
        ] + wrap("#        ", tm_words) + wrap("#       others:", other_copy) + [
            "# Rows: the original table first (SM70-SM80 and SM90 F16 GMMA, LDSM/STSM, UniversalCopy_32/64/128),",
            "#       then the other MMA atoms (header order; GMMA by family, N, SS before RS), then the other copy atoms,",
            "#       then the third extension's MMA rows (SIMD, SM120, sparse GMMA) and copy rows (header order).",
            "# Format: kind<TAB>NAME<TAB>Trait=VALUE<TAB>...",
        ]
        stored, sparse_rows = sparse_digests(rows)
        os.makedirs(os.path.dirname(a.tsv), exist_ok=True)
        # The description goes beside the table, not into it: the table is embedded in the
        # page's wasm, where 7.8 KB of prose cost 2.4 KB gzipped and nothing reads them.
        notes = os.path.splitext(a.tsv)[0] + ".txt"
        with open(notes, "w") as f:
            f.write("What %s holds (written with it by %s).\n\n" % (os.path.basename(a.tsv), GEN_REL))
            f.write("\n".join(l[2:] if l.startswith("# ") else l[1:] for l in hdr) + "\n")
        short = [
            "# CuTe atom traits from the CuTe C++ headers of CUTLASS %s, by %s; do not edit by hand." % (ver, GEN_REL),
            "# What the rows hold: %s beside this file. Format: kind<TAB>NAME<TAB>Trait=VALUE<TAB>..."
            % os.path.basename(notes),
        ]
        with open(a.tsv, "w") as f:
            f.write("\n".join(short + stored) + "\n")
        with open(a.sparse_digests, "w") as f:
            f.write("\n".join(SPARSE_DIGEST_HEADER + ["%016x" % fnv1a64(r) for r in sparse_rows]) + "\n")
        print("wrote %s (%d atoms)" % (a.tsv, len(rows)), file=sys.stderr)
        print("not in the table (an error or unclean output): %s" % missing, file=sys.stderr)
        print("SM120 instances differing from their row: %d %s" % (len(sm120_diffs), sm120_diffs[:10]),
              file=sys.stderr)
        for fam, ns in fams.items():
            print("  %s: %s" % (fam, n_text(sorted(ns))), file=sys.stderr)
        if major_diffs:
            print("MAJOR DIFFERENCES: %d" % len(major_diffs), file=sys.stderr)
            for d in major_diffs[:20]:
                print("  ", d, file=sys.stderr)
        else:
            print("GMMA traits identical for all majors checked", file=sys.stderr)
        if a.table_only:
            if a.errlog:
                with open(a.errlog, "w") as f:
                    for cid, msg in O.errlog:
                        f.write("%s\t%s\t%s\n" % (cid, ids.get(cid, ""), msg))
            return

        # the golden cases are built from the base atoms only (MMA, COPY), so that they do not
        # change when the table grows
        lines = []
        for name in MMA:
            for tr in MMA_TRAITS:
                v = val[("mma", name, tr)]
                if v is not ERROR:
                    lines.append({"op": "atom_trait", "expr": "get(atom(%s), %s)" % (name, tr), "expect": v})
        for name in COPY:
            for tr in COPY_TRAITS:
                v = val[("copy", name, tr)]
                if v is not ERROR:
                    lines.append({"op": "atom_trait", "expr": "get(atom(%s), %s)" % (name, tr), "expect": v})

        def flush():
            os.makedirs(os.path.dirname(a.out), exist_ok=True)
            with open(a.out + ".tmp", "w") as f:
                for l in lines:
                    f.write(json.dumps(l) + "\n")
            os.replace(a.out + ".tmp", a.out)
        flush()

        # ---------------- 2..4. cases ----------------
        def run_cases(cs):
            r = O.run_batches([(i, c[2]) for i, c in enumerate(cs)], a.batch)
            out = []
            for i, (op, e, _, tag) in enumerate(cs):
                if r[i] is ERROR:
                    out.append((op, e, "error", tag))
                else:
                    c = clean(r[i])
                    if c is None:
                        skipped.append((op, e, r[i]))
                        continue
                    out.append((op, e, c, tag))
            return out

        ca = run_cases(copy_atom_cases())
        bad = []
        for op, e, v, tag in ca:
            if v == "error" and tag not in bad:
                bad.append(tag)
        keep_bad = set(bad[:a.max_copy_errors])
        for op, e, v, tag in ca:
            if v == "error":
                if tag in keep_bad and e.endswith("SrcLayout)"):
                    lines.append({"op": op, "expr": e, "expect": v})
            else:
                lines.append({"op": op, "expr": e, "expect": v})
        print("copy_atom_trait: failing (atom,bits): %s" % bad, file=sys.stderr)
        flush()

        for gen in (tiled_mma_cases, tiled_copy_cases):
            for op, e, v, _ in run_cases(gen()):
                lines.append({"op": op, "expr": e, "expect": v})
            flush()

        # summary
        from collections import Counter
        cnt = Counter((l["op"], l["expect"] == "error") for l in lines)
        print("cases:", dict(cnt), "total", len(lines), "compiles", O.compiles, file=sys.stderr)
        if skipped:
            print("skipped (unclean output):", file=sys.stderr)
            for s in skipped:
                print("  ", s, file=sys.stderr)
        if a.errlog:
            with open(a.errlog, "w") as f:
                for cid, msg in O.errlog:
                    f.write("%s\t%s\n" % (cid, msg))
    finally:
        if not a.keep_tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("tmp kept:", tmp, file=sys.stderr)


if __name__ == "__main__":
    main()
