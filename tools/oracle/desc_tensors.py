#!/usr/bin/env python3
"""Golden data for descriptors made from tensors, from the real CuTe headers (host-only g++).

Writes testdata/desc-tensor-cases.jsonl: {"op", "expr", "expect"[, "msg"]}.

Each case is `make_{gmma,umma}_desc<Major>(T)` of a shared-memory tensor T as a mainloop
builds one: `tile_to_shape` of a canonical layout atom over (M, K, stages), a stage sliced
with `(_, _, s)`, then the (M tile, k-block) of one MMA instruction with `local_tile`. The
language writes T over `make_smem_ptr<T>(nullptr)`; the probe puts it at the start of a
1024-byte-aligned buffer instead. Host-only, CuTe's `cast_smem_ptr_to_uint` is 0, so the
probe sets the start address field to what it is on the device for shared memory at 0: the
byte offset of C++'s own `raw_pointer_cast(T.data())` (the swizzle applied, as C++
applies it) from the buffer, over 16. Every other field is C++'s as it computes it.

Run: ORACLE_DIR=oracle-work python3 tools/oracle/desc_tensors.py [-j 2]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import descs  # noqa: E402  (the Oracle runner, the UMMA descriptor print, the widths)

OUT = os.path.join(descs.ROOT, "testdata/desc-tensor-cases.jsonl")

START = "(unsigned)(((char const*)raw_pointer_cast(T.data()) - (char const*)smem_buf) >> 4)"


def atom_shape(major, sw, bits):
    width = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}[sw] // bits
    return (width, 8) if major == "MN" else (8, width)


def ceil_to(x, m):
    return -(-x // m) * m


def case(fam, major, sw, ty, tile, stages, stage, mtile, kblk, coord):
    ns = "GMMA" if fam == "gmma" else "UMMA"
    targ = "%s::Major::%s" % (ns, major)
    smem = "tile_to_shape(%s::Layout_%s_%s_Atom<%s>{}, make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}))" % (
        ns, major, sw, ty, tile[0], tile[1], stages)
    sliced = "local_tile(make_tensor(make_smem_ptr<%s>(@PTR@), %s)(_, _, %d), make_shape(Int<%d>{}, Int<%d>{}), make_coord(%d, %d))" % (
        ty, smem, stage, mtile, kblk, coord[0], coord[1])
    fn = "%s::make_%s_desc<%s>" % (ns, fam, targ)
    expr = "%s(%s)" % (fn, sliced.replace("@PTR@", "nullptr"))
    body = "  auto T = %s;\n  auto d = %s(T);\n" % (sliced.replace("@PTR@", "buf<%s>()" % ty), fn)
    if fam == "gmma":
        body += "  d.bitfield.start_address_ = %s;\n  print(d); printf(\"\\n\");\n" % START
    else:
        body += "  d.start_address_ = %s;\n%s" % (START, descs.UMMA_SMEM_PRINT)
    return descs.Case("make_%s_desc" % fam, expr, body)


def cases():
    out = []
    for fam in ["gmma", "umma"]:
        for ty in ["half_t", "float", "uint8_t"]:
            bits = descs.BITS[ty]
            kblk = 256 // bits  # K of one MMA instruction: 32 bytes of A
            mtile = 64 if fam == "gmma" else 128
            for sw in ["INTER", "SW32", "SW64", "SW128"]:
                for major in ["K", "MN"]:
                    a = atom_shape(major, sw, bits)
                    tile = (ceil_to(128, a[0]), ceil_to(max(64, 2 * kblk), a[1]))
                    mt = [m for m in range(tile[0] // mtile)]
                    kt = [k for k in range(tile[1] // kblk)]
                    for stage in [0, 2]:
                        for m in mt:
                            for k in kt:
                                out.append(case(fam, major, sw, ty, tile, 3, stage, mtile, kblk, (m, k)))
    # Tiles without a stage mode, as written in CuTe's own examples.
    for fam in ["gmma", "umma"]:
        ns = "GMMA" if fam == "gmma" else "UMMA"
        fn = "%s::make_%s_desc<%s::Major::K>" % (ns, fam, ns)
        for k in range(4):
            t = ("local_tile(make_tensor(make_smem_ptr<half_t>(@PTR@), tile_to_shape(%s::Layout_K_SW128_Atom<half_t>{}, "
                 "make_shape(Int<128>{}, Int<64>{}))), make_shape(Int<128>{}, Int<16>{}), make_coord(0, %d))" % (ns, k))
            expr = "%s(%s)" % (fn, t.replace("@PTR@", "nullptr"))
            body = "  auto T = %s;\n  auto d = %s(T);\n" % (t.replace("@PTR@", "buf<half_t>()"), fn)
            if fam == "gmma":
                body += "  d.bitfield.start_address_ = %s;\n  print(d); printf(\"\\n\");\n" % START
            else:
                body += "  d.start_address_ = %s;\n%s" % (START, descs.UMMA_SMEM_PRINT)
            out.append(descs.Case("make_%s_desc" % fam, expr, body))
    # What C++ refuses: a tensor outside shared memory, a tensor of rank 3 (the stages).
    for fam in ["gmma", "umma"]:
        ns = "GMMA" if fam == "gmma" else "UMMA"
        fn = "%s::make_%s_desc<%s::Major::K>" % (ns, fam, ns)
        atom = "%s::Layout_K_SW128_Atom<half_t>{}" % ns
        for ptr, shape in [("make_gmem_ptr<half_t>(@PTR@)", "Int<128>{}, Int<64>{}"),
                           ("make_smem_ptr<half_t>(@PTR@)", "Int<128>{}, Int<64>{}, Int<3>{}")]:
            t = "make_tensor(%s, tile_to_shape(%s, make_shape(%s)))" % (ptr, atom, shape)
            expr = "%s(%s)" % (fn, t.replace("@PTR@", "nullptr"))
            body = "  auto T = %s;\n  auto d = %s(T);\n  (void)d;\n" % (t.replace("@PTR@", "buf<half_t>()"), fn)
            out.append(descs.Case("make_%s_desc" % fam, expr, body))
    return out


if __name__ == "__main__":
    descs.run_cases(cases, OUT, batch=60)
