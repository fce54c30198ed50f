#!/usr/bin/env python3
"""Golden data for the kernel report: each C++ preset (crates/cute-lang/kernels/*.cpp) compiled
as it is, host-only, against the CuTe headers, printing what the report prints of it: every
shared-memory buffer's layout and the bytes of all of them, every TMA atom's box
(TmaGmemBasis), the TiledMMA's tile, and the GMMA/UMMA descriptor of every (M or N tile,
k-block, stage) as thread 0's fragments of the whole buffers hold them (smem at address 0,
as the report takes it).

Writes `testdata/kernel-report-cases.jsonl` (`{"preset", "fact", "expect"}`);
`crates/cute-render/tests/report.rs` checks the report's facts against it.

    ORACLE_DIR=oracle-work python3 tools/oracle/kernel_report.py

Python 3, stdlib only (the Oracle runner is descs.py's).
"""
import argparse
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import descs  # noqa: E402

descs.HEADERS = descs.HEADERS.replace(
    "#include <cute/atom/mma_atom.hpp>",
    "#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/mma_traits_sm80.hpp>\n"
    "#include <cute/atom/copy_traits_sm80.hpp>\n#include <cute/atom/copy_traits_sm75.hpp>\n"
    "#include <cute/atom/copy_traits_sm90.hpp>\n#include <cute/atom/copy_traits_sm100.hpp>")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "testdata", "kernel-report-cases.jsonl")

# Every (tile, k-block, stage) of the fragment (MMA, MMA_M|N, MMA_K[, PIPE]), stage-major.
LOOPS = ('  for (int s = 0; s < stages_of(fr); ++s) for (int m = 0; m < int(size<1>(fr)); ++m)'
         ' for (int k = 0; k < int(size<2>(fr)); ++k) {\n'
         '    printf("#desc %c %d %d %d\\n", OP, m, k, s); auto d = desc_at(fr, m, k, s);\n')
GMMA_PRINT = LOOPS + '    print(d); printf("\\n");\n  }\n'
UMMA_PRINT = LOOPS + descs.UMMA_SMEM_PRINT + "  }\n"
descs.HEADERS += """
template <class T> int stages_of(T const& fr) {
  if constexpr (decltype(rank(fr))::value > 3) { return int(size<3>(fr)); } else { return 1; }
}
template <class T> auto desc_at(T const& fr, int m, int k, int s) {
  if constexpr (decltype(rank(fr))::value > 3) { return fr(0, m, k, s); } else { return fr(0, m, k); }
}
"""

# Per preset: (its smem buffers with their element type, its TMA atoms, its TiledMMA and the
# descriptor fragments to print: "gmma" (partition_fragment_A/B of the buffer) or "umma"
# (make_fragment_A/B of the partitioned buffer)).
PRESETS = {
    "sm80_tutorial": ([("sA", "half_t"), ("sB", "half_t")], [], "mmaC", None),
    "sm90_tma_wgmma": ([("sA", "TA"), ("sB", "TB"), ("sC", "TC")], ["tmaA", "tmaB", "tmaC"],
                       "tiled_mma", "gmma"),
    "sm90_mn_major": ([("sA", "TA"), ("sB", "TB")], ["tmaA", "tmaB"], "tiled_mma", "gmma"),
    "sm100_umma": ([("sA_layout", "TypeA"), ("sB_layout", "TypeB")], ["tma_atom_A", "tma_atom_B"],
                   "tiled_mma", "umma"),
    "broken_sm80": ([("sA", "half_t"), ("sB", "half_t")], [], "mmaC", None),
}


def body(name):
    bufs, tmas, mma, descs_kind = PRESETS[name]
    src = open(os.path.join(ROOT, "crates", "cute-lang", "kernels", name + ".cpp")).read()
    out = [src, ""]
    for b, _ in bufs:
        out.append('  printf("#smem %s\\n"); print(%s); printf("\\n");' % (b, b))
    total = " + ".join("int(cosize(%s)) * int(sizeof_bits_v<%s>) / 8" % (b, t) for b, t in bufs)
    out.append('  printf("#bytes\\n%%d\\n", %s);' % total)
    for t in tmas:
        out.append('  printf("#tma %s\\n"); print(typename decltype(%s)::Traits::AuxParams::TmaGmemBasis{}); printf("\\n");' % (t, t))
    out.append('  printf("#tile\\n%%dx%%dx%%d\\n", int(tile_size<0>(%s)), int(tile_size<1>(%s)), int(tile_size<2>(%s)));' % (mma, mma, mma))
    for op, (b, t) in zip("AB", bufs[:2]):
        if descs_kind == "gmma":
            out.append("  { auto thr = %s.get_slice(0); Tensor fr = thr.partition_fragment_%s(make_tensor(make_smem_ptr(buf<%s>()), %s));\n  const char OP = '%s';\n%s  }"
                       % (mma, op, t, b, op, GMMA_PRINT))
        elif descs_kind == "umma":
            out.append("  { auto thr = %s.get_slice(0); Tensor fr = thr.make_fragment_%s(make_tensor(make_smem_ptr(buf<%s>()), %s));\n  const char OP = '%s';\n%s  }"
                       % (mma, op, t, b, op, UMMA_PRINT))
    return "\n".join(out) + "\n"


def one_line(text):
    """The report's one-line form of a multi-line print (kernel.rs `one_line`)."""
    lines = text.splitlines()
    head = lines[0].strip() if lines else ""
    fields = [" ".join(l.split()).replace(" :", ":") for l in lines[1:]]
    fields = [f for f in fields if f]
    return "%s (%s)" % (head, ", ".join(fields)) if fields else head


def facts(name, out):
    res = []
    for block in re.split(r"^#", out, flags=re.M)[1:]:
        head, _, text = block.partition("\n")
        text = text.rstrip("\n")
        kind, *rest = head.split()
        if kind == "smem":
            res.append(("smem %s layout" % rest[0], text))
        elif kind == "bytes":
            res.append(("budget total bytes", text))
        elif kind == "tma":
            res.append(("tma %s box" % rest[0], text))
        elif kind == "tile":
            res.append(("mma tile", text))
        elif kind == "desc":
            res.append(("desc %s tile %s k-block %s stage %s" % tuple(rest), one_line(text)))
    return [{"preset": name, "fact": f, "expect": e} for f, e in res]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        o = descs.Oracle(args.oracle_dir, tmp)
        for name in PRESETS:
            c = descs.Case("kernel_report", name, body(name))
            o.batch([c])
            if c.expect == "error":
                sys.exit("%s does not compile or run as C++: %s" % (name, c.msg or c.runtime))
            got = facts(name, c.expect)
            print("%s: %d facts" % (name, len(got)))
            rows.extend(got)
    with open(args.out, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print("wrote %d lines to %s" % (len(rows), args.out))


if __name__ == "__main__":
    main()
