#!/usr/bin/env python3
"""Global-memory access corpora for gmem_bench.cu, and ncu results back to jsonl.

  corpus.py probes OUT.jsonl            hand-made probe patterns (strided, transposed,
                                        misaligned, widths 1-16 B, broadcasts, tails)
  corpus.py launches CORPUS LAUNCHES MANIFEST
                                        one launch per (pattern, instruction), with a
                                        control launch first and last
  corpus.py metrics QUERY.txt           the metric list this ncu knows (comma-separated)
  corpus.py convert MANIFEST RAW.csv LAUNCHLOG HEADER.json OUT.jsonl

Corpus line: {"name": unique, "op": "ld8".."ld128"|"st8".."st128", "instrs": [[32 byte
offsets, -1 = inactive lane], ...]}; other fields are kept. Offsets are bytes from a
4 KiB-aligned buffer of 1 MiB, aligned to the access width.

Stdlib only.
"""
import csv
import json
import random
import re
import sys

WIDTH = {"8": 1, "16": 2, "32": 4, "64": 8, "128": 16}
OPS = [k + b for k in ("ld", "st") for b in WIDTH] + ["cpasync_ca32", "cpasync_ca64", "cpasync_ca128", "cpasync_cg128"]
LIMIT = 1 << 20


def width(op):
    if op not in OPS:
        sys.exit(f"unknown op {op}")
    return WIDTH[op.rsplit("_", 1)[-1][2:] if op.startswith("cpasync") else op[2:]]


def kind(op):
    return "ldgsts" if op.startswith("cpasync") else op[:2]


def probes():
    out = []

    def add(name, op, addrs):
        w = width(op)
        assert len(addrs) == 32 and all(a == -1 or (0 <= a <= LIMIT - w and a % w == 0) for a in addrs), name
        out.append({"name": f"{op}_{name}", "op": op, "instrs": [addrs]})

    rnd = random.Random(11)
    for op in OPS:
        w = width(op)
        lanes = range(32)
        add("contig", op, [l * w for l in lanes])
        for off in (w, 32, 64, 96, 112):
            if off % w == 0:
                add(f"contig_off{off}", op, [off + l * w for l in lanes])
        add("contig_off4096", op, [4096 + l * w for l in lanes])
        for s in (2, 3, 4, 8, 32, 33):
            add(f"stride{s}", op, [l * s * w for l in lanes])
        add("stride128B", op, [l * 128 for l in lanes])
        add("stride96B", op, [l * 96 for l in lanes])
        add("broadcast", op, [256] * 32)
        add("pairs", op, [(l // 2) * w for l in lanes])
        add("quads", op, [(l // 4) * w for l in lanes])
        add("mod8", op, [(l % 8) * w for l in lanes])
        add("reverse", op, [(31 - l) * w for l in lanes])
        perm = list(lanes)
        rnd.shuffle(perm)
        add("perm", op, [p * w for p in perm])
        for n in (0, 1, 8, 17, 31):
            add(f"tail{n}", op, [l * w if l < n else -1 for l in lanes])
        add("odd_lanes", op, [l * w if l % 2 else -1 for l in lanes])
        # a 32x32 row-major tile of w-byte elements: one column, and an 8x4 thread block
        add("transpose_col", op, [l * 32 * w for l in lanes])
        add("tile8x4", op, [(l % 8) * 32 * w + (l // 8) * w for l in lanes])
        add("tile4x8", op, [(l // 8) * 32 * w + (l % 8) * w for l in lanes])
        add("halves_4k", op, [(l % 16) * w + (l // 16) * 4096 for l in lanes])
        add("rows_256B", op, [(l // 4) * 256 + (l % 4) * w for l in lanes])
        add("scatter", op, [rnd.randrange(0, 8192 // w) * w for _ in lanes])
        add("scatter_line", op, [rnd.randrange(0, 128 // w) * w for _ in lanes])
    return out


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def launches(corpus, launches_path, manifest_path):
    rows = [json.loads(l) for l in open(corpus) if l.strip()]
    names = set()
    lines, manifest = [], []

    def emit(name, op, i, addrs):
        lid = len(lines)
        lines.append(f"{lid} {op} " + " ".join(str(a) for a in addrs))
        manifest.append({"launch": lid, "name": name, "op": op, "instr": i, "addrs": addrs})

    emit("control_first", "control", 0, [-1] * 32)
    for r in rows:
        if r["name"] in names:
            sys.exit(f"duplicate name {r['name']}")
        names.add(r["name"])
        w = width(r["op"])
        for i, addrs in enumerate(r["instrs"]):
            if len(addrs) != 32 or any(a != -1 and (a < 0 or a > LIMIT - w or a % w) for a in addrs):
                sys.exit(f"{r['name']} instr {i}: need 32 aligned offsets in [0, 1 MiB) or -1")
            emit(r["name"], r["op"], i, addrs)
    emit("control_last", "control", 0, [-1] * 32)
    open(launches_path, "w").write("\n".join(lines) + "\n")
    write_jsonl(manifest_path, manifest)
    print(f"{len(lines)} launches from {len(rows)} patterns")


WANT = [
    r"l1tex__t_(sectors|requests)_pipe_lsu_mem_global_op_(ld|st)(_lookup_(hit|miss))?",
    r"l1tex__t_(sectors|requests)_pipe_lsu_mem_global_op_ldgsts(_cache_(access|bypass))?",
    r"smsp__inst_executed_op_ldgsts",
    r"l1tex__t_set_(accesses|conflicts)_pipe_lsu_mem_global_op_(ld|st)",
    r"l1tex__data_pipe_lsu_wavefronts_mem_lg(_cmd_(read|write))?",
    r"l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld",
    r"l1tex__m_l1tex2xbar_write_sectors_mem_lg_op_st",
    r"lts__t_(sectors|requests)_srcunit_tex_op_(read|write)",
    r"smsp__inst_executed_op_global_(ld|st)",
    r"smsp__sass_inst_executed_op_global_(ld|st)",
]


def metrics(query):
    known = set()
    for line in open(query):
        m = re.match(r"\s*([a-z0-9_]+__[a-z0-9_]+)\s", line)
        if m:
            known.add(m.group(1))
    pick = sorted(k for k in known if any(re.fullmatch(w, k) for w in WANT))
    print(",".join(k + ".sum" for k in pick))


def num(s):
    s = s.replace(",", "").strip()
    try:
        return int(s)
    except ValueError:
        try:
            return float(s)
        except ValueError:
            return None


def convert(manifest, raw, launchlog, header, out):
    man = [json.loads(l) for l in open(manifest)]
    log = [l.rstrip("\n").split("\t") for l in open(launchlog) if l.strip()]
    with open(raw, newline="") as f:
        rd = list(csv.reader(f))
    head = rd[0]
    # the raw page has a header row, a units row, then one row per profiled kernel
    rows = [dict(zip(head, r)) for r in rd[2:] if r and r[0].strip().isdigit()]
    if not (len(man) == len(log) == len(rows)):
        sys.exit(f"counts differ: manifest {len(man)} log {len(log)} ncu {len(rows)}")
    h = json.load(open(header))
    metric_cols = [c for c in head if "__" in c]
    recs = []
    for m, l, r in zip(man, log, rows):
        if r.get("Kernel Name", "").split("(")[0] != l[2]:
            sys.exit(f"launch {m['launch']}: ncu kernel {r.get('Kernel Name')} != {l[2]}")
        # the counters asked for (the raw page adds device attributes and .avg/.min/.max)
        rawm = {c: num(r[c]) for c in metric_cols
                if c.startswith(("l1tex__", "lts__", "smsp__")) and c.endswith(".sum")}
        k_ = kind(m["op"]) if m["op"] != "control" else "ld"
        # cp.async's global read is counted with the loads in the L1TEX tag stage
        t_ = "ld" if k_ == "ldgsts" else k_
        g = lambda k: rawm.get(k)
        recs.append({
            "name": m["name"], "op": m["op"], "instr": m["instr"],
            "active_lanes": sum(a >= 0 for a in m["addrs"]),
            "sectors": g(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{t_}.sum"),
            "lines": g(f"l1tex__t_set_accesses_pipe_lsu_mem_global_op_{t_}.sum"),
            "requests": g(f"l1tex__t_requests_pipe_lsu_mem_global_op_{t_}.sum"),
            "instructions": g("smsp__inst_executed_op_ldgsts.sum" if k_ == "ldgsts"
                              else f"smsp__inst_executed_op_global_{k_}.sum"),
            "buffer_mod_4096": int(l[3]),
            "raw": rawm,
        })
    ctl = [r for r in recs if r["op"] == "control"]
    h["control_ok"] = all(
        all((v or 0) == 0 for k, v in r["raw"].items()
            if k.startswith(("l1tex__", "lts__", "smsp__inst", "smsp__sass"))) for r in ctl)
    h["control"] = [r["raw"] for r in ctl]
    with open(out, "w") as f:
        f.write(json.dumps(h) + "\n")
        for r in recs:
            if r["op"] != "control":
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(f"{out}: {len(recs) - len(ctl)} records, control_ok={h['control_ok']}")


def main():
    a = sys.argv[1:]
    if a[:1] == ["probes"] and len(a) == 2:
        rows = probes()
        write_jsonl(a[1], rows)
        print(f"{len(rows)} patterns -> {a[1]}")
    elif a[:1] == ["launches"] and len(a) == 4:
        launches(*a[1:])
    elif a[:1] == ["metrics"] and len(a) == 2:
        metrics(a[1])
    elif a[:1] == ["convert"] and len(a) == 6:
        convert(*a[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
