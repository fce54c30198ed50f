#!/usr/bin/env python3
"""Golden cases for the atoms of the third table extension and the templated SM100 / SM120
MMA families (CuTe Layout Explorer).

Writes testdata/atom-ext-cases.jsonl ({"op","expr","expect"}), every
`expect` printed by the real CuTe C++ headers (the oracle of atoms.py, same includes and
flags), or "error" where g++ refuses the C++ line:

  atom_trait       get(atom(NAME), TRAIT) of new table rows (incl. ELayout, SFALayout,
                   SFBLayout, ValID), and of templated instances written as C++ writes them
                   (SM120_16x8x32_TN<float_e2m1_t, float_e5m2_t, half_t>, ...)
  umma_atom        get(atom(SM100_MMA_...<...>), TRAIT) over every UMMA family, and the
                   MMA_Traits<SM100_MMA_F8F6F4_SS, ...> form; wrong types -> "error"
  copy_atom_trait  get(atom(NAME, BITS), Src/Dst/RefLayout) of the new copy atoms
  tiled_mma        get_layoutA/B/C_TV and tile_shape of make_tiled_mma over sparse GMMA,
                   SM120, the SM100 SIMD FMAs and every UMMA family (1SM and 2x1SM); M / N /
                   major / vector-size violations -> "error"
  tiled_copy       get_layoutS/D_TV and tile_shape of make_tiled_copy over the new copy atoms

Deterministic (fixed lists and a seeded RNG). Python 3, stdlib only. From the repository root:

  ORACLE_DIR=oracle-work python3 tools/oracle/atoms_ext.py [--errlog PATH]
"""
import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atoms  # noqa: E402
from atoms import ERROR, Lay, Oracle, clean, cx, cx_tile, ex, ex_tile  # noqa: E402

REPO = atoms.REPO
DEFAULT_OUT = os.path.join(REPO, "crates", "cute-core", "tests", "data", "atom-ext-cases.jsonl")
R = random.Random(20251123)

BITS_T = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}
MAJ = {"K": "UMMA::Major::K", "MN": "UMMA::Major::MN"}
GMAJ = {"K": "GMMA::Major::K", "MN": "GMMA::Major::MN"}


def read_table(path):
    rows = {}
    for l in open(path):
        if l.startswith("#") or not l.strip():
            continue
        kind, name, rest = l.rstrip("\n").split("\t", 2)
        rows[name] = (kind, dict(f.split("=", 1) for f in rest.split("\t")))
    return rows


def tuple_size(text):
    """Size of the first mode of a printed layout's shape (e.g. `(32,1024):(0,1)` -> 32)."""
    shape = text.split(":")[0]
    v, _ = atoms._tuple(shape)
    return v


def flat_prod(v):
    if isinstance(v, list):
        p = 1
        for x in v:
            p *= flat_prod(x)
        return p
    return v


# ----------------------------------------------------------------------------
# UMMA instances: (expr spelling, C++ spelling) of one op
# ----------------------------------------------------------------------------


def umma(op, a, b, c, m, n, ma="K", mb="K", sf=None, vs=None, extra=None):
    """SM100_MMA_<op><a, b, c, [sf,] m, n, [vs,] ma, mb[, extra]>: the same text in both."""
    args = [a, b, c] + ([sf] if sf else []) + [str(m), str(n)] + ([str(vs)] if vs else []) + \
        [MAJ[ma], MAJ[mb]] + ([str(extra)] if extra is not None else [])
    t = "SM100_MMA_%s<%s>" % (op, ", ".join(args))
    return t, t


def f8f6f4_traits(op, a, b, c, m, n, ma="K", mb="K"):
    t = ("MMA_Traits<SM100_MMA_%s, %s, %s, %s, C<%d>, C<%d>, integral_constant<UMMA::Major, %s>, "
         "integral_constant<UMMA::Major, %s>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, "
         "integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>" % (op, a, b, c, m, n, MAJ[ma], MAJ[mb]))
    return t, t


def umma_instances():
    """(spelling, intended ok) over every UMMA family: valid ones at the M/N edges, and
    M/N/major/type/VS violations."""
    I = []
    H, BF, F, T32, S8, U8, I32 = "half_t", "bfloat16_t", "float", "tfloat32_t", "int8_t", "uint8_t", "int32_t"
    E4, E5, E2M1, E3M2, E2M3 = "float_e4m3_t", "float_e5m2_t", "float_e2m1_t", "float_e3m2_t", "float_e2m3_t"
    UE8, UE4 = "float_ue8m0_t", "float_ue4m3_t"
    for two in ["", "2x1SM_"]:
        Ms = [128, 256] if two else [64, 128]
        for fam, ab, acc in [("TF32", T32, F), ("F16BF16", H, F), ("F16BF16", BF, F), ("S8", S8, I32)]:
            for src in ["SS", "TS"]:
                op = "%s_%s%s" % (fam, two, src)
                I.append((umma(op, ab, ab, acc, Ms[1], 256), True))
                I.append((umma(op, ab, ab, acc, Ms[0], 64 if two else 32, "K", "MN"), True))
                if src == "SS":
                    I.append((umma(op, ab, ab, acc, Ms[1], 48 if not two else 96, "MN", "MN"), True))
                I.append((umma(op, ab, ab, acc, 96, 128), False))               # M
                I.append((umma(op, ab, ab, acc, Ms[1], 264), False))            # N > 256
                I.append((umma(op, ab, ab, acc, Ms[1], 24 if two else 12), False))  # N step
                if src == "TS":
                    I.append((umma(op, ab, ab, acc, Ms[1], 128, "MN", "K"), False))  # A from TMEM
            op = "%s_%sSS_SPARSE" % (fam, two)
            I.append((umma(op, ab, ab, acc, Ms[1], 128), True))
            I.append((umma(op, ab, ab, acc, Ms[0], 64, "MN", "K"), True))
            I.append((umma(op, ab, ab, acc, Ms[1], 4), False))
        for src in ["SS", "TS"]:
            op = "F16BF16_%s%s_SCALED" % (two, src)
            I.append((umma(op, H, H, F, Ms[1], 128, extra=2), True))
            I.append((umma(op, BF, BF, F, Ms[0], 64, extra=1), True))
            I.append((umma(op, H, H, F, Ms[1], 8 if two else 4, extra=1), False))
        # F8F6F4: TS and SS_SPARSE templates; SS through its traits
        op = "F8F6F4_%sTS" % two
        I.append((umma(op, E4, E5, F, Ms[1], 256), True))
        I.append((umma(op, E2M1, E3M2, H, Ms[0], 64, "K", "MN"), True))
        I.append((umma(op, E4, E4, F, Ms[1], 128, "MN", "K"), False))
        I.append((umma(op, H, H, F, Ms[1], 128), False))                        # 16-bit types
        op = "F8F6F4_%sSS_SPARSE" % two
        I.append((umma(op, E4, E4, F, Ms[1], 128), True))
        I.append((umma(op, E5, E4, H, Ms[0], 64, "MN", "MN"), True))
        I.append((umma(op, E4, E4, F, Ms[1], 40), False))
        op = "F8F6F4_%sSS" % two
        I.append((f8f6f4_traits(op, E4, E4, F, Ms[1], 256), True))
        I.append((f8f6f4_traits(op, E2M3, E2M1, H, Ms[0], 16 if two else 8, "MN", "K"), True))
        I.append((f8f6f4_traits(op, E4, E5, F, Ms[1], 32, "K", "MN"), True))
        I.append((f8f6f4_traits(op, E4, E4, F, Ms[1], 16 if two else 8, "K", "MN"), False))  # MN B: wider step
        I.append((f8f6f4_traits(op, E4, E4, F, 32, 64), False))
        I.append((f8f6f4_traits(op, H, H, F, Ms[1], 64), False))
        I.append((f8f6f4_traits(op, E4, E4, F, Ms[1], 264), False))
        # MXF8F6F4 (block-scaled)
        M_mx = 256 if two else 128
        for var in ["SS", "SS_SPARSE"]:
            op = "MXF8F6F4_%s%s" % (two, var)
            I.append((umma(op, E4, E4, F, M_mx, 256, sf=UE8), True))
            I.append((umma(op, E2M1, E5, F, M_mx, 64, "MN", "K", sf=UE8), True))
            I.append((umma(op, E4, E4, F, 64, 128, sf=UE8), False))
            I.append((umma(op, E4, E4, F, M_mx, 8 if two else 12, sf=UE8), False))
        # MXF4 / MXF4NVF4 sparse (4-bit, vector size VS)
        for var, vss in [("MXF4_%sSS" % two, [16, 32]), ("MXF4NVF4_%sSS_SPARSE" % two, [32, 64])]:
            mm = 128 if not two else 256
            I.append((umma(var, E2M1, E2M1, F, mm, 256, sf=UE8, vs=vss[1]), True))
            I.append((umma(var, E2M1, E2M1, F, mm, 128, sf=UE4, vs=vss[0]), True))
            I.append((umma(var, E2M1, E2M1, F, mm, 128, sf=UE4, vs=vss[1]), False))  # wide VS, ue4m3
            I.append((umma(var, E2M1, E2M1, F, mm, 128, sf=UE8, vs=8), False))
            I.append((umma(var, E4, E4, F, mm, 128, sf=UE8, vs=vss[0]), False))
    return I


# ----------------------------------------------------------------------------
# case lists: (op, expr, C++ statement)
# ----------------------------------------------------------------------------

MMA_TR = ["Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout"]
COPY_TR = ["ThrID", "SrcLayout", "DstLayout", "RefLayout"]
COPY_MEMBER = {"ThrID": "ThrID", "SrcLayout": "ValLayoutSrc", "DstLayout": "ValLayoutDst",
               "RefLayout": "ValLayoutRef"}


def trait_cases(table, new_mma, new_copy, sm120):
    cs = []
    # table rows of the third extension: every non-GMMA MMA row, a sample of sparse GMMA,
    # a sample of the copy rows (their optional traits included)
    gm = [n for n in new_mma if n.startswith("GMMA_")]
    pick = [n for n in new_mma if not n.startswith("GMMA_")] + sorted(R.sample(gm, 24), key=gm.index)
    for name in pick:
        t = new_mma[name]
        for tr in MMA_TR + atoms.opt_traits("mma", name):
            cs.append(("atom_trait", "get(atom(%s), %s)" % (name, tr),
                       "print(typename MMA_Traits<%s>::%s{});" % (t, tr)))
    cp = list(new_copy)
    cpick = [n for n in cp if not n.startswith("SM100_TMEM_")] + sorted(
        R.sample([n for n in cp if n.startswith("SM100_TMEM_")], 24), key=cp.index)
    for name in cpick:
        for tr in COPY_TR + atoms.opt_traits("copy", name):
            cs.append(("atom_trait", "get(atom(%s), %s)" % (name, tr),
                       "print(typename Copy_Traits<%s>::%s{});" % (name, tr)))
    # SM120 instances spelled as C++ writes them (namespaces left out in the expression)
    for name, (q, insts) in sm120.items():
        for args in R.sample(insts, min(3, len(insts))):
            e_t = "%s<%s>" % (name, ", ".join(args))
            c_t = "%s<%s>" % (q, ", ".join(args))
            for tr in ["ALayout", "CLayout"] + atoms.opt_traits("mma", name)[:1]:
                cs.append(("atom_trait", "get(atom(%s), %s)" % (e_t, tr),
                           "print(typename MMA_Traits<%s>::%s{});" % (c_t, tr)))
    # instances C++ does not specialise
    for e_t, c_t in [("SM120_16x8x32_TN<float_e4m3_t, float_e4m3_t, bfloat16_t>",) * 2,
                     ("SM120_16x8x32_TN<half_t, half_t, float>",) * 2,
                     ("SM120_16x8x64_TN_VS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 32>",
                      "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 32>"),
                     ("SM120_SPARSE_16x8x64_TN_VS<float_e4m3_t, float_e4m3_t, float, float_ue4m3_t, 32>",
                      "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<float_e4m3_t, float_e4m3_t, float, float_ue4m3_t, 32>")]:
        cs.append(("atom_trait", "get(atom(%s), ALayout)" % e_t,
                   "(void)sizeof(%s); print(typename MMA_Traits<%s>::ALayout{});" % (c_t, c_t)))
    # sparse GMMA written as C++ writes it
    for e_t in ["SM90::GMMA::SPARSE::GMMA_64x96x32_F32BF16BF16_SS<GMMA::Major::MN, GMMA::Major::K>",
                "SM90::GMMA::SPARSE::GMMA_64x256x64_F32E4M3E5M2_RS_TN<>",
                "SM90::GMMA::SPARSE::GMMA_64x24x64_S32U8S8_SS_TN_SATURATE<>"]:
        for tr in ["Shape_MNK", "ALayout", "ELayout"]:
            cs.append(("atom_trait", "get(atom(%s), %s)" % (e_t, tr),
                       "print(typename MMA_Traits<%s>::%s{});" % (e_t, tr)))
    return cs


def umma_cases():
    cs = []
    for (e_t, c_t), ok in umma_instances():
        trs = MMA_TR if ok else ["ALayout"]
        if e_t.startswith("MMA_Traits"):
            for tr in trs:
                cs.append(("umma_atom", "get(atom(%s), %s)" % (e_t, tr),
                           "print(typename %s::%s{});" % (c_t, tr)))
            continue
        for tr in trs:
            cs.append(("umma_atom", "get(atom(%s), %s)" % (e_t, tr),
                       "print(typename MMA_Traits<%s>::%s{});" % (c_t, tr)))
    return cs


def copy_atom_cases(new_copy):
    cs = []
    names = [n for n in new_copy if not n.startswith("SM100_TMEM_")] + \
        sorted(R.sample([n for n in new_copy if n.startswith("SM100_TMEM_")], 16), key=list(new_copy).index)
    for name in names:
        for bits in [8, 16, 32]:
            for tr in ["SrcLayout", "DstLayout", "RefLayout"]:
                cs.append(("copy_atom_trait", "get(atom(%s, %d), %s)" % (name, bits, tr),
                           "print(typename Copy_Atom<%s,%s>::%s{});" % (name, BITS_T[bits], COPY_MEMBER[tr])))
    return cs


def tiled_mma_cases(new_mma, sm120):
    cfgs = []  # (expr atom, C++ op value, atom layout, perm)
    gm = [n for n in new_mma if n.startswith("GMMA_")]
    for name in sorted(R.sample(gm, 14), key=gm.index) + ["GMMA_64x8x32_F16F16F16_RS", "GMMA_64x256x16_F32TF32TF32_SS_TN"]:
        cpp = new_mma[name]
        cfgs.append(("atom(%s)" % name, cpp + "{}", Lay((1, 1, 1)), None))
        cfgs.append(("atom(%s)" % name, cpp + "{}", Lay((2, 1, 1)), None))
    for name in ["SM100_2x1x1_F32F32F32F32", "SM100_1x2x1_F32F32F32F32"]:
        cfgs.append(("atom(%s)" % name, name + "{}", Lay((1, 1, 1)), None))
        cfgs.append(("atom(%s)" % name, name + "{}", Lay((4, 8, 1)), None))
        cfgs.append(("atom(%s)" % name, name + "{}", Lay((8, 4, 1), (4, 1, 0)), (16, 16, 1)))
    for name, (q, insts) in sm120.items():
        args = insts[len(insts) // 2]
        e_t = "%s<%s>{}" % (name, ", ".join(args))
        c_t = "%s<%s>{}" % (q, ", ".join(args))
        cfgs.append((e_t, c_t, Lay((1, 1, 1)), None))
        cfgs.append((e_t, c_t, Lay((2, 2, 1)), None))
        cfgs.append((e_t, c_t, Lay((2, 2, 1)), (32, 32, None)))
    for (e_t, c_t), ok in umma_instances():
        e_v = e_t + "{}"
        cfgs.append((e_v, c_t + "{}", Lay((1, 1, 1)), None, ok))
        if ok and R.random() < 0.35:
            cfgs.append((e_v, c_t + "{}", R.choice([Lay((2, 1, 1)), Lay((1, 2, 1))]), None, ok))
    cs = []
    for cfg in cfgs:
        e_a, c_a, al, perm = cfg[:4]
        intended_error = len(cfg) > 4 and not cfg[4]
        # A line that names the op as C++ does (`Op<...>{}`) is C++, where a plain integer
        # is a run-time int: its atom layout and permutation are written as C++ too.
        cpp_line = "<" in e_a
        if perm is None:
            e = "make_tiled_mma(%s, %s)" % (e_a, cx(al) if cpp_line else ex(al))
            c = "make_tiled_mma(%s, %s)" % (c_a, cx(al))
        else:
            pm = tuple(p for p in perm if p is not None)
            e = "make_tiled_mma(%s, %s, %s)" % (e_a, cx(al) if cpp_line else ex(al),
                                                 cx_tile(pm) if cpp_line else ex_tile(pm))
            c = "make_tiled_mma(%s, %s, %s)" % (c_a, cx(al), cx_tile(pm))
        for f in [] if intended_error else ["get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV"]:
            cs.append(("tiled_mma", "%s(%s)" % (f, e), "print(%s.%s());" % (c, f)))
        cs.append(("tiled_mma", "tile_shape(%s)" % e,
                   "auto m = %s; print(make_shape(tile_size<0>(m),tile_size<1>(m),tile_size<2>(m)));" % c))
    return cs


def tiled_copy_cases(table, new_copy):
    T = []
    cp = list(new_copy)
    tm = [n for n in cp if n.startswith("SM100_TMEM_")]
    names = [n for n in cp if not n.startswith("SM100_TMEM_")] + sorted(R.sample(tm, 12), key=cp.index)
    for name in names:
        tr = table[name][1]
        nthr = flat_prod(atoms._tuple(tr["ThrID"].split(":")[0])[0])
        ref = tr["RefLayout"]
        ref_bits = flat_prod(atoms._tuple(ref.split(":")[0])[0]) // max(1, nthr)
        for bits in [32, 16]:
            v = ref_bits // bits
            if v < 1:
                continue
            T.append((name, bits, Lay((nthr, 1)), Lay((1, v))))
            T.append((name, bits, R.choice([Lay((nthr, 2), (2, 1)), Lay((nthr, 4))]), Lay((v, 1))))
        # too few values for the atom (where the atom moves more than one 32-bit value)
        if ref_bits > 32:
            T.append((name, 32, Lay((nthr, 1)), Lay((1, 1)), "few"))
    cs = []
    seen = set()
    for cfg in T:
        name, bits, thr, val = cfg[:4]
        e = "make_tiled_copy(atom(%s, %d), %s, %s)" % (name, bits, ex(thr), ex(val))
        if e in seen:
            continue
        seen.add(e)
        c = "make_tiled_copy(Copy_Atom<%s,%s>{}, %s, %s)" % (name, BITS_T[bits], cx(thr), cx(val))
        cs.append(("tiled_copy", "get_layoutS_TV(%s)" % e, "print(%s.get_layoutS_TV());" % c))
        if len(cfg) > 4:
            continue
        cs.append(("tiled_copy", "get_layoutD_TV(%s)" % e, "print(%s.get_layoutD_TV());" % c))
        cs.append(("tiled_copy", "tile_shape(%s)" % e,
                   "print(typename decltype(%s)::Tiler_MN{});" % c))
    return cs


def sm103_cases():
    """The SM103 block-scaled UMMA (SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS, K = 96): traits and
    TiledMMAs of valid instances, M / N / VS / major violations. A fixed list (no RNG), after
    every other case, so that adding it left the earlier cases as they were."""
    E2M1, E4, F, UE8, UE4 = "float_e2m1_t", "float_e4m3_t", "float", "float_ue8m0_t", "float_ue4m3_t"
    inst = []
    for two, ms in [("", [128]), ("2x1SM_", [128, 256])]:
        op = "SM103::SM103_MXF4_ULTRA_%sSS_VS" % two
        for m in ms:
            inst.append(((op, E2M1, E2M1, F, UE8, m, 256, 32, "K", "K"), True))
            inst.append(((op, E2M1, E2M1, F, UE4, m, 16, 16, "K", "K"), True))
        inst += [((op, E2M1, E2M1, F, UE4, 128, 128, 32, "K", "K"), False),   # VS 32 needs ue8m0
                 ((op, E4, E2M1, F, UE8, 128, 128, 32, "K", "K"), False),     # and an e2m1 A
                 ((op, E2M1, E2M1, F, UE8, 128, 128, 64, "K", "K"), False),
                 ((op, E2M1, E2M1, F, UE8, 64, 128, 16, "K", "K"), False),
                 ((op, E2M1, E2M1, F, UE8, 128, 24, 16, "K", "K"), False),
                 ((op, E2M1, E2M1, F, UE8, 128, 128, 16, "MN", "K"), False),
                 ((op, E2M1, E2M1, F, UE8, 128, 128, 16, "K", "MN"), False)]
    cs = []
    for (op, a, b, c, sf, m, n, vs, ma, mb), ok in inst:
        t = "%s<%s, %s, %s, %s, %d, %d, %d, %s, %s>" % (op, a, b, c, sf, m, n, vs, MAJ[ma], MAJ[mb])
        for tr in MMA_TR if ok else ["ALayout"]:
            cs.append(("umma_atom", "get(atom(%s), %s)" % (t, tr),
                       "print(typename MMA_Traits<%s>::%s{});" % (t, tr)))
        c_m = "make_tiled_mma(%s{})" % t
        for f in ["get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV"] if ok else []:
            cs.append(("tiled_mma", "%s(%s)" % (f, c_m), "print(%s.%s());" % (c_m, f)))
        cs.append(("tiled_mma", "tile_shape(%s)" % c_m,
                   "auto m = %s; print(make_shape(tile_size<0>(m),tile_size<1>(m),tile_size<2>(m)));" % c_m))
    return cs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--tsv", default=atoms.DEFAULT_TSV)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--only", help="comma-separated ops")
    ap.add_argument("--list", action="store_true", help="print the cases, compile nothing")
    ap.add_argument("--keep-tmp", action="store_true")
    ap.add_argument("--errlog")
    ap.add_argument("--reuse", metavar="JSONL",
                    help="take the expect of every case whose expr a previous output (this file's "
                         "format) already has; compile only the others")
    a = ap.parse_args()

    table = read_table(a.tsv)
    new_mma, new_copy, sm120 = atoms.new_atoms(a.oracle_dir)
    new_mma = {k: v for k, v in new_mma.items() if k in table}
    new_copy = {k: v for k, v in new_copy.items() if k in table}
    cases = (trait_cases(table, new_mma, new_copy, sm120) + umma_cases() + copy_atom_cases(new_copy)
             + tiled_mma_cases(new_mma, sm120) + tiled_copy_cases(table, new_copy) + sm103_cases())
    if a.only:
        keep = set(a.only.split(","))
        cases = [c for c in cases if c[0] in keep]
    if a.list:
        for c in cases:
            print(c[0], c[1], "||", c[2])
        return
    known = {}
    if a.reuse:
        for l in open(a.reuse):
            d = json.loads(l)
            known[(d["op"], d["expr"])] = d["expect"]
    tmp = tempfile.mkdtemp(prefix="cute-atoms-ext-")
    O = Oracle(a.oracle_dir, a.j, tmp)
    try:
        todo = [(i, c[2]) for i, c in enumerate(cases) if (c[0], c[1]) not in known]
        res = O.run_batches(todo, a.batch)
        for i, c in enumerate(cases):
            if (c[0], c[1]) in known:
                v = known[(c[0], c[1])]
                res[i] = ERROR if v == "error" else v
        lines, skipped = [], []
        for i, (op, e, _) in enumerate(cases):
            r = res[i]
            if r is ERROR:
                lines.append({"op": op, "expect": "error", "expr": e})
                continue
            v = clean(r)
            if v is None:
                skipped.append((op, e, r))
                continue
            lines.append({"op": op, "expect": v, "expr": e})
        os.makedirs(os.path.dirname(a.out), exist_ok=True)
        with open(a.out, "w") as f:
            for l in lines:
                f.write(json.dumps({"op": l["op"], "expr": l["expr"], "expect": l["expect"]}) + "\n")
        from collections import Counter
        cnt = Counter((l["op"], l["expect"] == "error") for l in lines)
        print("cases:", dict(cnt), "total", len(lines), "compiles", O.compiles, file=sys.stderr)
        for s in skipped:
            print("  skipped (unclean):", s, file=sys.stderr)
        if a.errlog:
            with open(a.errlog, "w") as f:
                for cid, msg in O.errlog:
                    f.write("%s\t%s\t%s\n" % (cid, cases[cid][1], msg))
    finally:
        if not a.keep_tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
