#!/usr/bin/env python3
"""Pick the golden totals out of `cargo test ... -- --nocapture` output.

    python3 bench/golden_totals.py TEST-OUTPUT.txt > golden-totals.txt

Keeps every line that prints a pass count or a total: "N / M" per-op and TOTAL lines with
the header line of their file ("X.jsonl: pass counts per op", "... pass / total ..."), the
snippets "N/M pass" lines (their long list of names cut), the hardware lines ("hw/...",
"model vs H100", "N instructions of M patterns", the kernel's "model (...) ncu (...)"
lines) and every "test result:" line, each under the test binary it came from (the
"Running tests/X.rs" line, without cargo's hash and crate path, so the file can be compared
with a tree where the test moved to another crate). Test threads print concurrently, so
lines are grouped by test binary and the groups' lines are given in the order printed;
run the tests with `-- --nocapture --test-threads=1` for an order that never changes.
"""

import re
import sys

COUNT = re.compile(r"\b\d+ ?/ ?\d+\b")


def main():
    out = []
    section = None
    for raw in open(sys.argv[1], encoding="utf-8", errors="replace"):
        line = raw.rstrip("\n").lstrip(".")
        # --test-threads=1: a test's first line follows "test NAME ... " on the same line.
        line = re.sub(r"^test \S+ \.\.\. (?!ok$|FAILED$|ignored)", "", line)
        m = re.match(r"\s*Running (.+?) \((?:.*/)?(\w+?)-[0-9a-f]+\)$", line)
        if m:
            section = m.group(1)
            if section.startswith("unittests"):
                section += f" ({m.group(2)})"
            out.append(f"== {section}")
            continue
        m = re.match(r"\s*Doc-tests (\S+)", line)
        if m:
            section = "doc-tests " + m.group(1)
            out.append(f"== {section}")
            continue
        keep = (line.startswith("test result:")
                or COUNT.search(line)
                or re.search(r"pass counts per op|pass / total|model vs H100|"
                             r"instructions of \d+ patterns|^hw/|model \(.*\) ncu \(", line))
        if not keep or re.match(r"\s+Compiling |\s+Finished ", line):
            continue
        line = re.sub(r"(\d+/\d+ pass): .*", r"\1: ...", line)
        line = re.sub(r"; finished in [0-9.]+s$", "", line)
        out.append(line)
    print("\n".join(out))


if __name__ == "__main__":
    main()
