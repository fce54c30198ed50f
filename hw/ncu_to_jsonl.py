#!/usr/bin/env python3
"""Nsight Compute helpers for the shared-memory bank benchmark.

Subcommands
  metrics QUERY.txt            choose the metrics to collect from the output of
                               `ncu --query-metrics` (prints a comma list)
  filter QUERY.txt LIST        keep the metrics of the comma LIST that the query output
                               names, plus every shared-memory LDGSTS metric it names
                               (prints a comma list; the dropped ones go to stderr)
  convert MANIFEST RAW.csv LAUNCHLOG HEADER.json OUT.jsonl
                               map the ncu launches (in order) back to
                               (pattern, instr) and write the measured jsonl

RAW.csv is `ncu -i REPORT --csv --page raw --print-units base`: one row per
profiled kernel launch, in launch order (column "ID"), after a header row and
a units row.
"""
import csv
import json
import re
import sys

# Metrics we want if the device knows them (base names; ".sum" is appended).
WANTED = [
    # hardware counters in L1TEX: wavefronts = data-stage passes
    "l1tex__data_pipe_lsu_wavefronts_mem_shared",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm",
    "l1tex__data_bank_reads",
    "l1tex__data_bank_writes",
    # instruction counts (warp level) from the SM
    "smsp__inst_executed",
    "smsp__inst_executed_op_shared",
    "smsp__inst_executed_op_shared_ld",
    "smsp__inst_executed_op_shared_st",
    "smsp__inst_executed_op_ldsm",
    "smsp__inst_executed_op_stsm",
    # SASS-patching (instrumented) counters: ncu's own per-instruction model
    "smsp__sass_inst_executed_op_shared_ld",
    "smsp__sass_inst_executed_op_shared_st",
    "smsp__sass_inst_executed_op_ldsm",
    "smsp__sass_inst_executed_op_stsm",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm",
    "smsp__sass_data_bytes_mem_shared_op_ld",
    "smsp__sass_data_bytes_mem_shared_op_st",
    "smsp__sass_data_bytes_mem_shared_op_ldsm",
    "smsp__sass_data_bytes_mem_shared_op_stsm",
    "smsp__sass_thread_inst_executed_op_shared_ld",
    "smsp__sass_thread_inst_executed_op_shared_st",
    # cp.async (LDGSTS): its shared-memory side
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts",
    "smsp__inst_executed_op_ldgsts",
    "smsp__sass_inst_executed_op_ldgsts",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts",
]
# LDGSTS metrics worth collecting whatever their exact spelling on this ncu.
LDGSTS = re.compile(r"ldgsts")
LDGSTS_SHARED = re.compile(r"^(l1tex__data_\w*mem_shared\w*ldgsts\w*"
                           r"|smsp__(sass_)?inst_executed_op_ldgsts\w*"
                           r"|smsp__sass_l1tex_data_\w*mem_shared\w*ldgsts\w*"
                           r"|smsp__sass_data_bytes_mem_shared\w*ldgsts\w*"
                           r"|l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts\w*)$")
# Anything else about shared-memory wavefronts/conflicts/instructions that this
# ncu knows (e.g. other spellings of the ldsm/stsm counters) is added too.
DISCOVER = re.compile(
    r"^(l1tex__data_(pipe_lsu_wavefronts|bank_conflicts_pipe_lsu)_mem_shared\w*"
    r"|smsp__(sass_)?inst_executed_op_(shared\w*|ldsm\w*|stsm\w*)"
    r"|smsp__sass_l1tex_data_(pipe_lsu_wavefronts|bank_conflicts_pipe_lsu)_mem_shared\w*)$")
SKIP = re.compile(r"_atom|_red|ldgsts|_op_ld_|_op_st_|pred_on")
MAX_METRICS = 64

# Per op family: (wavefront metrics, conflict metrics, instruction-count metrics),
# first one present wins.  Seen on H100 / ncu 2025.3.1: the L1TEX hardware
# counters have no op_ldsm / op_stsm split -- LDSM is counted under op_ld and
# STSM under op_st (checked against the SASS-instrumented op_ldsm/op_stsm
# counters in the probe run).  Every launch (the control too) also shows one
# wavefront of op_misc, so the un-split total ..._mem_shared.sum is 1 higher.
W = "l1tex__data_pipe_lsu_wavefronts_mem_shared"
C = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"
SW = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"
SC = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared"
PRIMARY = {
    "ld": ([W + "_op_ld.sum"], [C + "_op_ld.sum"],
           ["smsp__inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum"]),
    "st": ([W + "_op_st.sum"], [C + "_op_st.sum"],
           ["smsp__inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_st.sum"]),
    "ldsm": ([W + "_op_ldsm.sum", W + "_op_ld.sum"], [C + "_op_ldsm.sum", C + "_op_ld.sum"],
             ["smsp__inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_ldsm.sum"]),
    "stsm": ([W + "_op_stsm.sum", W + "_op_st.sum"], [C + "_op_stsm.sum", C + "_op_st.sum"],
             ["smsp__inst_executed_op_shared_stsm.sum", "smsp__inst_executed_op_stsm.sum",
              "smsp__sass_inst_executed_op_shared_stsm.sum", "smsp__sass_inst_executed_op_stsm.sum"]),
    # cp.async: the hardware op_ldgsts counters if this GPU has them, else ncu's
    # SASS-instrumented ones (the run's header lists what was collected).
    "ldgsts": ([W + "_op_ldgsts.sum", SW + "_op_ldgsts.sum"],
               [C + "_op_ldgsts.sum", SC + "_op_ldgsts.sum"],
               ["smsp__inst_executed_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts.sum"]),
}
# SASS-instrumented cross-check (ncu's per-instruction counters)
SASS = {
    "ld": ([SW + "_op_ld.sum"], [SC + "_op_ld.sum"]),
    "st": ([SW + "_op_st.sum"], [SC + "_op_st.sum"]),
    "ldsm": ([SW + "_op_ldsm.sum"], [SC + "_op_ldsm.sum"]),
    "stsm": ([SW + "_op_stsm.sum"], [SC + "_op_stsm.sum"]),
    "ldgsts": ([SW + "_op_ldgsts.sum"], [SC + "_op_ldgsts.sum"]),
}
# metrics that must read 0 in the control launch (no shared instruction)
CONTROL_ZERO = re.compile(r"_mem_shared_op_(ld|st|ldsm|stsm|ldgsts)\.sum$"
                          r"|inst_executed_op_(shared|ldsm|stsm|ldgsts)\w*\.sum$")


def family(op):
    if op.startswith("cpasync"):
        return "ldgsts"
    if op.startswith("ldsm"):
        return "ldsm"
    if op.startswith("stsm"):
        return "stsm"
    return op[:2]


def query_names(query_path):
    names = set()
    with open(query_path, errors="replace") as f:
        for line in f:
            tok = line.strip().split()
            if tok and re.match(r"^[a-z0-9]+__[a-z0-9_]+$", tok[0]):
                names.add(tok[0])
    return names


def cmd_filter(query_path, wanted):
    names = query_names(query_path)
    wanted = [m for m in wanted.split(",") if m]
    if len(names) < 100:  # the query failed or printed nothing useful: keep the list
        print(f"filter: only {len(names)} metric names in {query_path}; keeping the list",
              file=sys.stderr)
        print(",".join(wanted))
        return
    # hw/metrics.txt's metrics were all collected on the H100 before: keep them even if
    # the query does not list them (it may leave out the SASS-instrumented ones).
    import os
    known = os.path.join(os.path.dirname(os.path.abspath(__file__)), "metrics.txt")
    known = set(open(known).read().replace("\n", "").replace(" ", "").split(","))
    base = lambda m: m.rsplit(".", 1)[0]
    sass_listed = any(n.startswith("smsp__sass_") for n in names)
    keep = [m for m in wanted if base(m) in names or m in known
            or (not sass_listed and m.startswith("smsp__sass_"))]
    dropped = [m for m in wanted if m not in keep]
    extra = sorted(n + ".sum" for n in names if LDGSTS_SHARED.match(n)
                   and n + ".sum" not in keep)
    print(f"filter: kept {len(keep)}, dropped (not on this GPU/ncu): {', '.join(dropped) or 'none'}; "
          f"added: {', '.join(extra) or 'none'}", file=sys.stderr)
    print("filter: every LDGSTS metric the query names: "
          + ", ".join(sorted(n for n in names if LDGSTS.search(n))), file=sys.stderr)
    print(",".join(keep + extra))


def cmd_metrics(query_path):
    names = query_names(query_path)
    chosen = [m for m in WANTED if m in names]
    extra = sorted(n for n in names if DISCOVER.match(n) and not SKIP.search(n) and n not in chosen)
    chosen += extra[: max(0, MAX_METRICS - len(chosen))]
    if not chosen:
        sys.exit("no wanted metric found in the query output")
    missing = [m for m in WANTED if m not in names]
    print(f"metrics: {len(chosen)} chosen ({len(extra)} discovered); not on this device: "
          f"{', '.join(missing) or 'none'}", file=sys.stderr)
    print(",".join(m + ".sum" for m in chosen))


def parse_num(s):
    s = (s or "").strip().replace(",", "")
    if s in ("", "n/a", "N/A"):
        return None
    try:
        v = float(s)
    except ValueError:
        return s
    return int(v) if v == int(v) else v


def read_raw_csv(path):
    with open(path, newline="") as f:
        lines = [l for l in f if not l.startswith("==")]  # drop ==PROF== chatter
    rows = list(csv.reader(lines))
    if not rows:
        sys.exit(f"{path}: empty")
    header = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(header):
            continue
        d = dict(zip(header, r))
        if not d.get("ID", "").strip().isdigit():
            continue  # units row
        out.append(d)
    out.sort(key=lambda d: int(d["ID"]))
    return header, out


def pick(metrics, names):
    for n in names:
        if metrics.get(n) is not None:
            return n, metrics[n]
    return None, None


def cmd_convert(manifest_path, csv_path, log_path, header_path, out_path):
    manifest = [json.loads(l) for l in open(manifest_path) if l.strip()]
    header_cols, rows = read_raw_csv(csv_path)
    log = [l.rstrip("\n").split("\t") for l in open(log_path) if l.strip()]
    if len(rows) != len(manifest):
        sys.exit(f"ncu profiled {len(rows)} launches but the manifest has {len(manifest)}")
    if len(log) != len(manifest):
        sys.exit(f"launch log has {len(log)} lines but the manifest has {len(manifest)}")
    # keep the .sum counters (drop .avg/.max, launch stats, device attributes)
    metric_cols = [c for c in header_cols
                   if re.match(r"^(l1tex|smsp|sm|lts)__", c) and c.endswith(".sum")]
    errors = []
    recs, controls, bases = [], {}, set()
    for m, row, lg in zip(manifest, rows, log):
        kname = row.get("Kernel Name", "").strip()
        want = "bb_" + m["op"]
        if kname != want and not kname.startswith(want + "("):
            errors.append(f"launch {m['launch']}: ncu kernel {kname!r} != expected {want!r}")
        if int(lg[0]) != m["launch"] or lg[1] != m["op"]:
            errors.append(f"launch {m['launch']}: launch log line {lg} does not match")
        bases.add(int(lg[3]))
        vals = {c: parse_num(row.get(c)) for c in metric_cols}
        if m.get("control"):
            controls[m["name"]] = vals
            continue
        fam = family(m["op"])
        wn, wv = pick(vals, PRIMARY[fam][0])
        if fam == "ldgsts":
            # H100 / ncu 2025.3.1 has no hardware op_ldgsts wavefront counter, but LDGSTS
            # wavefronts are in the un-split total and in none of op_ld/op_st/op_misc
            # (checked: equal to ncu's SASS-instrumented op_ldgsts count).
            parts = [vals.get(W + s) for s in (".sum", "_op_ld.sum", "_op_st.sum", "_op_misc.sum")]
            if None not in parts:
                wn = f"{W}.sum - _op_ld - _op_st - _op_misc"
                wv = parts[0] - parts[1] - parts[2] - parts[3]
        cn, cv = pick(vals, PRIMARY[fam][1])
        rn, rv = pick(vals, PRIMARY[fam][2])
        _, swv = pick(vals, SASS[fam][0])
        _, scv = pick(vals, SASS[fam][1])
        rec = {"name": m["name"], "op": m["op"], "instr": m["instr"],
               "wavefronts": wv, "bank_conflicts": cv, "requests": rv,
               "sass_wavefronts": swv, "sass_bank_conflicts": scv,
               "wavefronts_metric": wn, "bank_conflicts_metric": cn, "requests_metric": rn,
               "active_lanes": m.get("active_lanes")}
        if swv is not None and wv is not None and swv != wv:
            errors.append(f"{m['name']}[{m['instr']}]: hardware wavefronts {wv} != SASS-counted {swv}")
        if rv != 1 and m.get("active_lanes", 32) > 0:
            errors.append(f"{m['name']}[{m['instr']}]: {rn} = {rv}, expected 1")
        if "inactive_substituted_with_0" in m:
            rec["inactive_substituted_with_0"] = m["inactive_substituted_with_0"]
        rec["raw"] = vals
        recs.append(rec)

    # Controls must read 0 on every per-op shared-memory counter.
    control_ok = bool(controls)
    for cname, vals in controls.items():
        nz = {c: v for c, v in vals.items() if CONTROL_ZERO.search(c) and v not in (0, None)}
        if nz:
            control_ok = False
            errors.append(f"control launch {cname} has non-zero shared metrics: {nz}")
    # L1 data-bank reads/writes relative to the first control launch (the
    # global loads/stores of the kernel also use the data banks).
    base = controls.get("__control_first", {})
    for r in recs:
        for k in ("l1tex__data_bank_reads.sum", "l1tex__data_bank_writes.sum"):
            if r["raw"].get(k) is not None and base.get(k) is not None:
                r[k.split("__")[1].replace(".sum", "") + "_minus_control"] = r["raw"][k] - base[k]

    header = json.load(open(header_path))
    header.update({"header": True, "metrics": metric_cols, "smem_base": sorted(bases),
                   "control_ok": control_ok, "control": controls,
                   "launches": len(manifest), "measured": len(recs)})
    with open(out_path, "w") as f:
        f.write(json.dumps(header) + "\n")
        for r in recs:
            f.write(json.dumps(r) + "\n")
    for e in errors:
        print("WARNING: " + e, file=sys.stderr)
    print(f"wrote {len(recs)} measurements to {out_path}; control_ok={control_ok}", file=sys.stderr)
    if any("!= expected" in e or "does not match" in e for e in errors):
        sys.exit(3)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "metrics" and len(sys.argv) == 3:
        cmd_metrics(sys.argv[2])
    elif len(sys.argv) >= 2 and sys.argv[1] == "filter" and len(sys.argv) == 4:
        cmd_filter(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 2 and sys.argv[1] == "convert" and len(sys.argv) == 7:
        cmd_convert(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
