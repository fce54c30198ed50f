#!/usr/bin/env python3
"""Where the page's wasm bytes go: code size per function and per crate.

Reads a wasm file that still has its `name` section (cargo's output before wasm-opt,
e.g. target/wasm32-unknown-unknown/release-web/cute-web.wasm) and prints the sections, the
biggest functions, and code bytes grouped by crate (the first path segment of the
demangled name; generic instances of std/alloc/core code are charged to std).

    python3 bench/wasm-sizes.py target/wasm32-unknown-unknown/release-web/cute-web.wasm [--top 40]
"""

import re
import sys
from collections import Counter


def leb(data, i):
    result = shift = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, i


def demangle(name):
    """Legacy Rust mangling (_ZN...E) to a path; v0 and plain names are returned as-is."""
    m = re.match(r"_ZN(.*)E$", name)
    if not m:
        return name
    s, parts, i = m.group(1), [], 0
    while i < len(s) and s[i].isdigit():
        j = i
        while s[j].isdigit():
            j += 1
        n = int(s[i:j])
        parts.append(s[j : j + n])
        i = j + n
    if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
        parts.pop()
    path = "::".join(parts)
    for a, b in [("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$RF$", "&"), ("$C$", ","),
                 ("..", "::"), ("$u7b$", "{"), ("$u7d$", "}"), ("$BP$", "*"), ("$u5b$", "["),
                 ("$u5d$", "]"), ("$SP$", "@"), ("$LP$", "("), ("$RP$", ")")]:
        path = path.replace(a, b)
    return path


def crate_of(path):
    path = path.lstrip("<&*[( ")
    if path.startswith("_<"):
        path = path[2:]
    head = re.split(r"::| ", path, maxsplit=1)[0]
    return head or "?"


def main():
    args = sys.argv[1:]
    top = 40
    if "--top" in args:
        k = args.index("--top")
        top = int(args[k + 1])
        del args[k : k + 2]
    data = open(args[0], "rb").read()
    assert data[:4] == b"\0asm", "not a wasm file"
    i, sections, bodies, names, n_imported = 8, Counter(), [], {}, 0
    while i < len(data):
        sid = data[i]
        size, j = leb(data, i + 1)
        end = j + size
        label = str(sid)
        if sid == 0:
            nlen, k = leb(data, j)
            label = "custom:" + data[k : k + nlen].decode(errors="replace")
            if label == "custom:name":
                p = k + nlen
                while p < end:
                    sub = data[p]
                    ssz, q = leb(data, p + 1)
                    if sub == 1:
                        count, r = leb(data, q)
                        for _ in range(count):
                            idx, r = leb(data, r)
                            ln, r = leb(data, r)
                            names[idx] = data[r : r + ln].decode(errors="replace")
                            r += ln
                    p = q + ssz
        elif sid == 2:
            count, k = leb(data, j)
            for _ in range(count):
                for _ in range(2):
                    ln, k = leb(data, k)
                    k += ln
                kind = data[k]
                k += 1
                if kind == 0:
                    _, k = leb(data, k)
                    n_imported += 1
                elif kind == 1:
                    k += 1
                    flags = data[k]
                    _, k = leb(data, k + 1)
                    if flags & 1:
                        _, k = leb(data, k)
                elif kind == 2:
                    flags = data[k]
                    _, k = leb(data, k + 1)
                    if flags & 1:
                        _, k = leb(data, k)
                elif kind == 3:
                    k += 2
            label = "import"
        elif sid == 10:
            count, k = leb(data, j)
            for f in range(count):
                bsz, b = leb(data, k)
                bodies.append((n_imported + f, b + bsz - k))
                k = b + bsz
            label = "code"
        elif sid == 11:
            label = "data"
        sections[label] += end - i
        i = end
    total = len(data)
    print(f"{args[0]}: {total} bytes")
    for label, n in sections.most_common():
        print(f"  {label:<28} {n:>9}  {100 * n / total:5.1f}%")
    code = sum(n for _, n in bodies)
    by_crate, by_fn = Counter(), Counter()
    for idx, n in bodies:
        path = demangle(names.get(idx, f"func[{idx}]"))
        by_fn[path] += n
        by_crate[crate_of(path)] += n
    print(f"\ncode by crate ({code} bytes in {len(bodies)} functions)")
    for c, n in by_crate.most_common(25):
        print(f"  {c:<40} {n:>8}  {100 * n / code:5.1f}%")
    print(f"\nbiggest {top} functions")
    for f, n in by_fn.most_common(top):
        print(f"  {n:>7}  {f[:150]}")


if __name__ == "__main__":
    main()
