#!/usr/bin/env python3
"""Turn a corpus (hw/corpus.jsonl format) into the launch list bank_bench reads.

    corpus_to_launches.py CORPUS.jsonl LAUNCHES.txt MANIFEST.jsonl [--start N] [--count M]

Every (pattern, instruction) becomes one launch, in file order.  A "control"
launch (no shared-memory access) is added first and last.  --start/--count
select a slice of the (pattern, instruction) launches, to split a big corpus
over several device calls.

LAUNCHES.txt lines:  <launch_id> <op> <a0> ... <a31> [<g0> ... <g31> for cpasync_*_gx]
MANIFEST.jsonl lines: {"launch": id, "name":..., "op":..., "instr": i, ...}
"""
import argparse
import json
import sys

SMEM_BYTES = 96 * 1024
ACCESS = {
    "ld8": 1, "ld16": 2, "ld32": 4, "ld64": 8, "ld128": 16,
    "st8": 1, "st16": 2, "st32": 4, "st64": 8, "st128": 16,
    "cpasync_ca32": 4, "cpasync_ca64": 8, "cpasync_ca128": 16, "cpasync_cg128": 16,
}
for _k in [k for k in ACCESS if k.startswith("cpasync")]:
    ACCESS[_k + "_gm"] = ACCESS[_k]  # global side at the shared offsets
    ACCESS[_k + "_gx"] = ACCESS[_k]  # global side given: "gaddrs", one list per instruction
ACCESS["cpasync_ca128_gxw"] = 16  # _gx whose lines are loaded into L1 first
for _k in ("ldsm", "stsm"):
    for _x in ("x1", "x2", "x4"):
        for _t in ("", "_t"):
            ACCESS[f"{_k}_{_x}{_t}"] = 16
OPS = set(ACCESS)


def is_matrix(op):
    return op.startswith("ldsm") or op.startswith("stsm")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("launches")
    ap.add_argument("manifest")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=-1)
    args = ap.parse_args()

    items = []  # (name, op, instr_index, addrs)
    names = set()
    with open(args.corpus) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                p = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{args.corpus}:{lineno}: bad JSON: {e}")
            if p.get("header"):
                continue
            name, op, instrs = p.get("name"), p.get("op"), p.get("instrs")
            if not isinstance(name, str) or op not in OPS or not isinstance(instrs, list):
                sys.exit(f"{args.corpus}:{lineno}: need name (str), op in {sorted(OPS)}, instrs (list)")
            if name in names:
                sys.exit(f"{args.corpus}:{lineno}: duplicate name {name!r}")
            names.add(name)
            size = ACCESS[op]
            for i, addrs in enumerate(instrs):
                if not isinstance(addrs, list) or len(addrs) != 32:
                    sys.exit(f"{args.corpus}:{lineno}: {name} instr {i}: need exactly 32 offsets")
                for lane, a in enumerate(addrs):
                    if not isinstance(a, int) or isinstance(a, bool):
                        sys.exit(f"{args.corpus}:{lineno}: {name} instr {i} lane {lane}: not an int: {a!r}")
                    if a == -1:
                        continue
                    if a < 0 or a + size > SMEM_BYTES or a % size:
                        sys.exit(f"{args.corpus}:{lineno}: {name} instr {i} lane {lane}: "
                                 f"offset {a} invalid for {op} (size {size}, buffer {SMEM_BYTES})")
                if op.endswith("_gx") or op.endswith("_gxw"):
                    gl = p.get("gaddrs")
                    g = gl[i] if isinstance(gl, list) and i < len(gl) else None
                    if not isinstance(g, list) or len(g) != 32 or any(
                            not isinstance(x, int) or isinstance(x, bool) or x < 0
                            or x + size > SMEM_BYTES or x % size for x in g):
                        sys.exit(f"{args.corpus}:{lineno}: {name} instr {i}: {op} needs gaddrs[{i}], "
                                 f"32 global offsets aligned to {size} inside {SMEM_BYTES} bytes")
                    addrs = addrs + g
                items.append((name, op, i, addrs))

    end = len(items) if args.count < 0 else min(len(items), args.start + args.count)
    sel = items[args.start:end]
    ctrl = [0] * 32
    with open(args.launches, "w") as fl, open(args.manifest, "w") as fm:
        lid = 0

        def emit(rec, op, addrs):
            nonlocal lid
            fl.write(f"{lid} {op} " + " ".join(str(a) for a in addrs) + "\n")
            rec = dict(rec, launch=lid)
            fm.write(json.dumps(rec) + "\n")
            lid += 1

        emit({"control": True, "name": "__control_first", "op": "control", "instr": 0}, "control", ctrl)
        for name, op, i, addrs in sel:
            rec = {"name": name, "op": op, "instr": i,
                   "active_lanes": sum(1 for a in addrs[:32] if a != -1)}
            if is_matrix(op) and -1 in addrs:
                # .sync.aligned needs the whole warp; give inactive lanes offset 0.
                rec["inactive_substituted_with_0"] = [l for l, a in enumerate(addrs) if a == -1]
                addrs = [0 if a == -1 else a for a in addrs]
            emit(rec, op, addrs)
        emit({"control": True, "name": "__control_last", "op": "control", "instr": 0}, "control", ctrl)
    print(f"{len(items)} instructions in corpus; {len(sel)} selected "
          f"[{args.start}, {end}); {len(sel) + 2} launches", file=sys.stderr)


if __name__ == "__main__":
    main()
