"""Helpers of the bank-model corpus generators (gen_patterns.py, gen_patterns_ext.py):
named `bank_conflicts(...)` lines, checked unique, written as `NAME<TAB>EXPR`."""


class Patterns:
    def __init__(self):
        self.rows = []

    def add(self, name, expr):
        assert all(name != n for n, _ in self.rows), name
        self.rows.append((name, expr))

    def write(self, path, header):
        with open(path, "w") as f:
            f.write(header + "\n")
            for n, e in self.rows:
                f.write(f"{n}\t{e}\n")
        print(f"{len(self.rows)} patterns -> {path}")


def sw(s, layout):
    """`layout` under swizzle `s` (None: no swizzle)."""
    return layout if s is None else f"{s} o 0 o {layout}"


def tag(s):
    """A swizzle's name in a pattern name: `Sw<3,4,3>` -> `sw343`, None -> `none`."""
    return "none" if s is None else s.replace("Sw<", "sw").replace(">", "").replace(",", "")
