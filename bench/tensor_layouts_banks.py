#!/usr/bin/env python3
"""Shared-memory bank conflicts: tensor-layouts' analysis versus measured wavefronts.

Reads the access-pattern corpus (hw/corpus.jsonl) and the hardware measurements
(hw/fixtures/measured.jsonl), rebuilds every pattern as tensor-layouts objects from the
structured fields (smem_shape/smem_stride/swizzle, tv_shape/tv_stride, vec, bits; no
string parsing), asks tensor-layouts (PyPI `tensor-layouts==0.3.2`,
`tensor_layouts.analysis.per_group_bank_conflicts`) for its conflict factor of every
warp instruction, and compares the sum with the hardware wavefront count.

How a pattern is handed to tensor-layouts (see bench/README.md, "tensor-layouts
comparison", for the reasoning):

  smem    = compose(Swizzle(B, M, S), Layout(smem_shape, smem_stride))   (or the plain Layout)
  tv      = Layout(tv_shape, tv_stride)          # (thread, value) -> index into smem's domain
  access  = compose(smem, tv)                    # (thread, value) -> element offset
  instr i = ComposedLayout(access, Layout((T, vec), (1, T)), offset=i*vec*T)
            # (thread, j) -> offset of value i*vec+j: one vector instruction, mode 0 = thread
  per_group_bank_conflicts(instr i, element_bytes=bits/8, group_size=32)
            # one group per warp; 'max_ways' of a group = one warp instruction

  predicted wavefronts of the pattern = sum of max_ways over (warp, instruction) groups.

ldmatrix / stmatrix (ldsm_*, stsm_*): tensor-layouts defines them as CopyAtoms (bit-level
thread/value layouts it can draw) but none of its analysis functions takes a CopyAtom or
models their per-8x8-matrix row-address phases, so those patterns are counted as
"not modelled" (``--ldsm-generic`` additionally reports the generic per-value call on
them, outside the agreement figures).

Usage:
  python3 bench/tensor_layouts_banks.py                      # hw/corpus.jsonl + hw/fixtures/measured.jsonl
  python3 bench/tensor_layouts_banks.py --corpus C --measured M --json out.json
The script re-executes itself with .venv-tl/bin/python (or $TL_PYTHON) when
`import tensor_layouts` fails.
"""

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TL_PY = os.environ.get("TL_PYTHON", ".venv-tl/bin/python")

try:
    import tensor_layouts
    from tensor_layouts import ComposedLayout, Layout, Swizzle, compose, mode, rank, size
    from tensor_layouts.analysis import bank_conflicts, per_group_bank_conflicts
except ImportError:
    if os.path.exists(TL_PY) and os.path.abspath(sys.executable) != os.path.abspath(TL_PY) \
            and not os.environ.get("TL_BANKS_REEXEC"):
        os.environ["TL_BANKS_REEXEC"] = "1"
        os.execv(TL_PY, [TL_PY, __file__] + sys.argv[1:])
    sys.exit("tensor_layouts is not importable; install it with\n"
             "  python3 -m venv .venv-tl && .venv-tl/bin/pip install tensor-layouts==0.3.2\n"
             "or point $TL_PYTHON at an interpreter that has it")

PLAIN_OP = re.compile(r"^(ld|st)(32|64|128)$")
MATRIX_OP = re.compile(r"^(ldsm|stsm)_x(1|2|4)(_t)?$")


def to_tuple(x):
    """Nested JSON lists -> nested tuples (CuTe IntTuple); ints stay ints."""
    if isinstance(x, list):
        return tuple(to_tuple(e) for e in x)
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    raise ValueError("shape/stride entries must be ints or lists, got %r" % (x,))


def build_access(rec):
    """Return (access layout, thread count T, value count V, notes)."""
    notes = []
    smem = Layout(to_tuple(rec["smem_shape"]), to_tuple(rec["smem_stride"]))
    off = int(rec.get("offset") or 0)
    if rec.get("swizzle"):
        b, m, s = rec["swizzle"]
        if off:                                          # Sw<B,M,S> o off o (shape:stride)
            smem = ComposedLayout(Swizzle(b, m, s), smem, offset=off)
        else:                                            # Sw<B,M,S> o 0 o (shape:stride)
            smem = compose(Swizzle(b, m, s), smem)
    elif off:                                            # off + (shape:stride), identity outer
        smem = ComposedLayout(Layout(1, 1), smem, offset=off)
    tv = Layout(to_tuple(rec["tv_shape"]), to_tuple(rec["tv_stride"]))
    n = size(tv)
    try:
        access = compose(smem, tv)
        # compose() simplifies algebraically; make sure it is the function smem(tv(i)).
        bad = next((i for i in range(n) if access(i) != smem(tv(i))), None)
        if bad is not None:
            notes.append("compose(smem, tv) differs from smem(tv(i)) at i=%d; "
                         "used ComposedLayout(smem, tv)" % bad)
            access = ComposedLayout(smem, tv)
    except Exception as e:  # noqa: BLE001 - report and fall back to the exact node
        notes.append("compose(smem, tv) raised %s: %s; used ComposedLayout(smem, tv)"
                     % (type(e).__name__, e))
        access = ComposedLayout(smem, tv)
    t = size(mode(tv, 0)) if rank(tv) > 1 else n
    return access, t, n // t, notes


def element_bytes_of(bits):
    return bits // 8 if bits % 8 == 0 else bits / 8   # sub-byte: tensor-layouts just multiplies


def analyse(rec):
    """tensor-layouts' view of one pattern: a list of per-(warp, instr) groups."""
    access, t, v, notes = build_access(rec)
    vec = int(rec["vec"])
    if vec <= 0 or v % vec:
        raise ValueError("values per thread %d not a multiple of vec %d" % (v, vec))
    eb = element_bytes_of(int(rec["bits"]))
    n_instr = v // vec
    groups = []
    for i in range(n_instr):
        if n_instr == 1:
            lay = access                      # already (thread, value) with vec values per thread
        else:
            lay = ComposedLayout(access, Layout((t, vec), (1, t)), offset=i * vec * t)
        res = per_group_bank_conflicts(lay, element_bytes=eb, group_size=32)
        for w, g in enumerate(res["groups"]):
            lanes = []
            contiguous = True
            for lane in range(32):
                th = 32 * w + lane
                if th >= t:
                    lanes.append(-1)
                    continue
                base = lay(th)                                # value 0 of this lane's vector
                lanes.append(int(base * eb))
                if any(lay(th + j * t) != base + j for j in range(1, vec)):
                    contiguous = False
            groups.append({"warp": w, "instr": i, "max_ways": g["max_ways"],
                           "conflict_free": g["conflict_free"], "lanes": lanes,
                           "contiguous": contiguous})
    # the literal one-call use: first 32 threads, every value of the TV layout at once
    whole = bank_conflicts(access, element_bytes=eb)["max_ways"]
    return groups, whole, notes


def pair_instrs(groups, instrs):
    """Match tensor-layouts' (warp, instr) groups to the corpus instructions by address.

    Returns (mapping corpus index -> group index or None, status string)."""
    def try_shift(delta):
        pool = defaultdict(list)
        for gi, g in enumerate(groups):
            key = tuple(a + delta if a >= 0 else -1 for a in g["lanes"])
            pool[key].append(gi)
        m = {}
        for ci, lanes in enumerate(instrs):
            lst = pool.get(tuple(lanes))
            m[ci] = lst.pop(0) if lst else None
        return m

    m = try_shift(0)
    if all(v is not None for v in m.values()):
        return m, "same" if len(groups) == len(instrs) else "subset"
    # constant base address (e.g. an aligned smem buffer)?
    ca = [a for lanes in instrs for a in lanes if a >= 0]
    ta = [a for g in groups for a in g["lanes"] if a >= 0]
    if ca and ta:
        delta = min(ca) - min(ta)
        if delta:
            m2 = try_shift(delta)
            if all(v is not None for v in m2.values()):
                return m2, "base%+d" % delta
    matched = sum(v is not None for v in m.values())
    return m, "MISMATCH %d/%d" % (matched, len(instrs))


def load_jsonl(path):
    out = []
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as e:
                    sys.exit("%s:%d: %s" % (path, ln, e))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(REPO / "hw" / "corpus.jsonl"))
    ap.add_argument("--measured", default=str(REPO / "hw" / "fixtures" / "measured.jsonl"))
    ap.add_argument("--json", metavar="OUT", help="write per-pattern results to OUT")
    ap.add_argument("--ldsm-generic", action="store_true",
                    help="also run the generic per-value call on ldsm/stsm patterns "
                         "(reported, never counted)")
    ap.add_argument("--quiet", action="store_true", help="summary only")
    args = ap.parse_args()

    corpus = load_jsonl(args.corpus)
    meas = defaultdict(dict)          # name -> instr -> record
    header = None
    if os.path.exists(args.measured):
        for r in load_jsonl(args.measured):
            if r.get("header"):
                header = r
                continue
            meas[r["name"]][int(r["instr"])] = r
    else:
        print("note: %s not found; printing tensor-layouts' predictions only" % args.measured)

    results = []
    for rec in corpus:
        name, op = rec["name"], rec["op"]
        instrs = rec.get("instrs") or []
        r = {"name": name, "op": op, "bits": rec.get("bits"), "vec": rec.get("vec"),
             "swizzle": rec.get("swizzle"), "n_instrs": len(instrs)}
        # hardware side
        m = meas.get(name, {})
        if m:
            r["hw_wavefronts"] = sum(int(x["wavefronts"]) for x in m.values())
            r["hw_bank_conflicts"] = sum(int(x.get("bank_conflicts", 0)) for x in m.values())
            r["hw_instrs_measured"] = len(m)
            r["hw_complete"] = set(m) == set(range(len(instrs))) if instrs else True
        else:
            r["hw_wavefronts"] = r["hw_bank_conflicts"] = None
            r["hw_instrs_measured"] = 0
            r["hw_complete"] = False

        if rec.get("model_wavefronts") is not None:      # our model's prediction, for reference
            r["ours_wavefronts"] = sum(int(x) for x in rec["model_wavefronts"])
        matrix = MATRIX_OP.match(op)
        plain = PLAIN_OP.match(op)
        if plain and int(plain.group(2)) != int(rec["vec"]) * int(rec["bits"]):
            r.setdefault("notes", []).append(
                "op width %s != vec*bits %d" % (plain.group(2), int(rec["vec"]) * int(rec["bits"])))
        if not plain:
            r["status"] = "not modelled"
            r["why"] = ("tensor-layouts has ldmatrix/stmatrix only as CopyAtoms (drawable "
                        "bit layouts); its bank analysis has no per-matrix row-address model"
                        if matrix else "op unknown to this script")
            if args.ldsm_generic and matrix:
                try:
                    groups, whole, notes = analyse(rec)
                    r["generic_call_wavefronts"] = sum(g["max_ways"] for g in groups)
                except Exception as e:  # noqa: BLE001
                    r["generic_call_error"] = "%s: %s" % (type(e).__name__, e)
            results.append(r)
            continue

        try:
            groups, whole, notes = analyse(rec)
        except Exception as e:  # noqa: BLE001 - one bad pattern must not stop the run
            r["status"] = "error"
            r["why"] = "%s: %s" % (type(e).__name__, e)
            results.append(r)
            continue
        if notes:
            r.setdefault("notes", []).extend(notes)
        if not all(g["contiguous"] for g in groups):
            r.setdefault("notes", []).append("a lane's vec values are not contiguous in smem")
        mapping, addr = pair_instrs(groups, instrs) if instrs else ({}, "no instrs")
        r["addr_match"] = addr
        paired = instrs and all(v is not None for v in mapping.values())
        used = [groups[mapping[ci]] for ci in range(len(instrs))] if paired else groups
        r["tl_groups"] = len(groups)
        r["tl_max_ways_per_instr"] = [g["max_ways"] for g in used]
        r["tl_wavefronts"] = sum(g["max_ways"] for g in used)
        r["tl_max_ways"] = max((g["max_ways"] for g in used), default=0)
        r["tl_conflict_free"] = all(g["conflict_free"] for g in used)
        r["tl_whole_tv_call_max_ways"] = whole
        if r["hw_wavefronts"] is None:
            r["status"] = "no measurement"
        else:
            r["status"] = "agree" if r["tl_wavefronts"] == r["hw_wavefronts"] else "disagree"
            r["conflict_free_agree"] = r["tl_conflict_free"] == (r["hw_bank_conflicts"] == 0)
            if paired:
                per = [(int(m[ci]["wavefronts"]) if ci in m else None,
                        groups[mapping[ci]]["max_ways"]) for ci in range(len(instrs))]
                r["hw_wavefronts_per_instr"] = [h for h, _ in per]
                r["instr_agree"] = sum(1 for h, p in per if h is not None and h == p)
        results.append(r)

    # ---- report --------------------------------------------------------------------------
    if header:
        info = {k: v for k, v in header.items() if k != "header"}
        print("measurements: %s" % json.dumps(info)[:300])
    print("tensor-layouts %s (per_group_bank_conflicts, 32 banks x 4 B, group_size=32)"
          % tensor_layouts.__version__)
    cols = ["name", "op", "bits", "vec", "ins", "hw_wf", "tl_wf", "ours_wf", "tl_ways",
            "hw_conf", "tl_cf", "result", "addr"]
    rows = []
    for r in results:
        rows.append([
            r["name"], r["op"], str(r["bits"]), str(r["vec"]), str(r["n_instrs"]),
            "-" if r["hw_wavefronts"] is None else str(r["hw_wavefronts"]),
            str(r.get("tl_wavefronts", "-")), str(r.get("ours_wavefronts", "-")),
            str(r.get("tl_max_ways", "-")),
            "-" if r["hw_bank_conflicts"] is None else str(r["hw_bank_conflicts"]),
            {True: "yes", False: "no"}.get(r.get("tl_conflict_free"), "-"),
            r["status"], r.get("addr_match", "-"),
        ])
    if not args.quiet:
        w = [max(len(c), *(len(row[i]) for row in rows)) if rows else len(c)
             for i, c in enumerate(cols)]
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(cols)))
        print("  ".join("-" * w[i] for i in range(len(cols))))
        for row in rows:
            print("  ".join(x.ljust(w[i]) for i, x in enumerate(row)))
        for r in results:
            for n in r.get("notes", []):
                print("note: %s: %s" % (r["name"], n))
            if r["status"] in ("error",):
                print("error: %s: %s" % (r["name"], r["why"]))

    st = Counter(r["status"] for r in results)
    compared = [r for r in results if r["status"] in ("agree", "disagree")]
    n_agree = st["agree"]
    print()
    print("patterns: %d  | compared %d: agree %d, disagree %d | not modelled %d | "
          "no measurement %d | error %d"
          % (len(results), len(compared), n_agree, st["disagree"], st["not modelled"],
             st["no measurement"], st["error"]))
    if compared:
        print("wavefront agreement: %.1f%% (%d/%d modelled, measured patterns)"
              % (100.0 * n_agree / len(compared), n_agree, len(compared)))
        cf = sum(1 for r in compared if r["conflict_free_agree"])
        print("conflict-free flag agreement (tl conflict_free vs hw bank_conflicts == 0): "
              "%.1f%% (%d/%d)" % (100.0 * cf / len(compared), cf, len(compared)))
        by_op = defaultdict(lambda: [0, 0])
        for r in compared:
            by_op[r["op"]][1] += 1
            by_op[r["op"]][0] += r["status"] == "agree"
        print("by op: " + ", ".join("%s %d/%d" % (k, a, n) for k, (a, n) in sorted(by_op.items())))
        inc = [r["name"] for r in compared if not r["hw_complete"]]
        if inc:
            print("warning: measurements do not cover every corpus instruction for: %s"
                  % ", ".join(inc[:10]))
    both = [r for r in results if "tl_wavefronts" in r and "ours_wavefronts" in r]
    if both:
        same = sum(r["tl_wavefronts"] == r["ours_wavefronts"] for r in both)
        print("for reference: tensor-layouts == our model (corpus model_wavefronts) on %d/%d "
              "modelled patterns" % (same, len(both)))
        ours_cmp = [r for r in compared if "ours_wavefronts" in r]
        if ours_cmp:
            ok = sum(r["ours_wavefronts"] == r["hw_wavefronts"] for r in ours_cmp)
            print("for reference: our model == hardware on %d/%d of the same patterns"
                  % (ok, len(ours_cmp)))
    mism = [r["name"] for r in results if str(r.get("addr_match", "")).startswith("MISMATCH")]
    if mism:
        print("warning: tensor-layouts' addresses differ from the corpus instrs for %d "
              "pattern(s): %s" % (len(mism), ", ".join(mism[:10])))
    if args.json:
        summary = {"tensor_layouts_version": tensor_layouts.__version__,
                   "corpus": args.corpus, "measured": args.measured,
                   "patterns": len(results), "compared": len(compared), "agree": n_agree,
                   "agreement_pct": (100.0 * n_agree / len(compared)) if compared else None,
                   "not_modelled": st["not modelled"], "no_measurement": st["no measurement"],
                   "errors": st["error"]}
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "results": results}, f, indent=1)
        print("wrote %s" % args.json)


if __name__ == "__main__":
    main()
