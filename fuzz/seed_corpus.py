#!/usr/bin/env python3
"""Write a libFuzzer seed corpus for the fuzz targets: one file per test case.

Sources (paths relative to the repository root):
  testdata/*.jsonl     the "expr" and "code" fields
  testdata/bad-inputs.txt   one hostile line per file
  testdata/fuzz/*      earlier findings (README excluded)
  hw/patterns*.txt, hw/gmem/patterns.txt  the EXPR of each NAME<TAB>EXPR line (bank and
                                          coalescing analyses of tiled copies)
  crates/cute-lang/kernels/*              the kernel report's presets, whole

Usage: fuzz/seed_corpus.py OUT_DIR     (files are named by the SHA-1 of their content,
as libFuzzer names its own, so re-running is idempotent and duplicates collapse)
"""
import glob
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LEN = 4096  # longer seeds are truncated by -max_len anyway


def cases():
    data = os.path.join(ROOT, "testdata")
    jsonl = sorted(glob.glob(os.path.join(data, "*.jsonl")))
    for path in jsonl:
        if not os.path.exists(path):
            print(f"skipping {path} (absent)", file=sys.stderr)
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    continue
                for key in ("expr", "code"):
                    v = obj.get(key)
                    if isinstance(v, str) and v.strip():
                        yield v
    for path in sorted(glob.glob(os.path.join(ROOT, "crates/cute-lang/kernels/*"))):
        with open(path, encoding="utf-8") as f:
            yield f.read()
    bad = os.path.join(data, "bad-inputs.txt")
    if os.path.exists(bad):
        with open(bad, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    yield line.rstrip("\n")
    hw = sorted(glob.glob(os.path.join(ROOT, "hw", "patterns*.txt")))
    for path in hw + [os.path.join(ROOT, "hw", "gmem", "patterns.txt")]:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "\t" in line and not line.startswith("#"):
                    yield line.rstrip("\n").split("\t", 1)[1]
    for path in glob.glob(os.path.join(data, "fuzz", "*")):
        if os.path.basename(path) != "README":
            with open(path, encoding="utf-8", errors="replace") as f:
                yield f.read()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    n = 0
    for text in cases():
        b = text.encode("utf-8")[:MAX_LEN]
        name = hashlib.sha1(b).hexdigest()
        p = os.path.join(out, name)
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(b)
            n += 1
    print(f"{n} new seed files in {out}")


if __name__ == "__main__":
    main()
