"""Cell labels, LaTeX export (CuTe's print_latex), explain and functionally_equal from
Python: each the same code and output as the `render` command line and the language.

Run from the repository root after `pip install ./python` (scripts/test.sh does both):
    pytest python/tests
"""
import json
import os
import pickle
import re
import subprocess
import sys

import pytest

import cute_explorer as cx

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "testdata")

DIVIDE = "logical_divide((4,2,3):(2,1,8), 4:2)"
DIVIDED = "((2,2),(2,3)):((4,1),(2,8))"


def cli(*args):
    """`python -m cute_explorer ARGS` (the render CLI): its completed process."""
    return subprocess.run([sys.executable, "-m", "cute_explorer", *args], capture_output=True, text=True)


def cells(svg):
    """Each grid cell's `data-*` attributes and its text (None where it has none)."""
    out = []
    for attrs, body in re.findall(r'<g class="cell(?: [^"]*)?"([^>]*)>(.*?)</g>', svg, re.S):
        data = dict(re.findall(r'data-([\w-]+)="([^"]*)"', attrs))
        text = re.search(r"<text[^>]*>([^<]*)</text>", body)
        out.append((data, text.group(1) if text else None))
    return out


# --- labels ---------------------------------------------------------------------------

def test_labels_say_what_each_cell_shows(tmp_path):
    v = cx.evaluate("((2,2),(2,4)):((1,4),(2,8))")
    by_index = cells(v.svg(labels="index"))
    assert len(by_index) == 32 and all(t == d["idx"] for d, t in by_index)
    assert all(t == f"({d['row']},{d['col']})" for d, t in cells(v.svg(labels="flat")))
    # The offset is the layout view's own label: auto and offset draw the same picture.
    assert all(t == d["offset"] for d, t in cells(v.svg(labels="offset")))
    assert v.svg(labels="offset") == v.svg(labels="auto") == v.svg()
    assert all(t is None for _, t in cells(v.svg(labels="none")))
    coord = v.svg(labels="coord")
    assert ">((0,0),(1,2))</text>" in coord and "cell = its natural coordinate" in coord
    # The SVG `render --labels coord` writes, byte for byte.
    out = tmp_path / "coord.svg"
    r = cli("--expr", "((2,2),(2,4)):((1,4),(2,8))", "--labels", "coord", str(out))
    assert r.returncode == 0, r.stderr
    assert coord == out.read_text()
    # A thread-value view's cells say T#/V# (its own label, so tv draws the same); index
    # labels them by the tile's index.
    tv = cx.evaluate("make_layout_tv((4,8):(8,1), (2,2):(2,1))")
    assert tv.svg(labels="tv") == tv.svg() and "T0" in tv.svg()
    tv_index = cells(tv.svg(labels="index"))
    assert len(tv_index) == 128 and all(t == d["idx"] for d, t in tv_index)
    # With the other options, in png and save, and None is the default.
    assert v.png(labels="none", theme="dark")[1:4] == b"PNG"
    v.save(tmp_path / "none.svg", labels="none")
    assert (tmp_path / "none.svg").read_text() == v.svg(labels="none")
    assert v.svg(labels=None) == v.svg()


def test_a_bad_labels_name_is_a_value_error_naming_them():
    v = cx.evaluate("(4,4):(4,1)")
    with pytest.raises(ValueError) as e:
        v.svg(labels="offsets")
    msg = str(e.value)
    assert msg == "unknown labels 'offsets' (one of auto, offset, index, coord, flat, tv, none)"
    # A CuteError too (as every drawing option's error), with the message and no column.
    assert isinstance(e.value, cx.CuteError) and isinstance(e.value, cx.OptionError)
    assert e.value.message == msg and e.value.column is None
    with pytest.raises(ValueError, match="labels= takes a string"):
        v.png(labels=3)
    with pytest.raises(ValueError, match="unknown view 'nope'"):
        v.svg(view="nope")
    with pytest.raises(ValueError, match="unknown drawing option 'label'.*labels"):
        v.svg(label="coord")


# --- the new views ---------------------------------------------------------------------

@pytest.mark.parametrize("view,expr", [
    ("bits", "Sw<3,4,3>"),
    ("compare", "functionally_equal((4,2):(1,4), (4,2):(2,1))"),
    ("algebra", f"explain({DIVIDE})"),
])
def test_the_bits_compare_and_explain_views_are_the_renderers(view, expr, tmp_path):
    v = cx.evaluate(expr)
    out = tmp_path / "cli.svg"
    r = cli("--expr", expr, str(out))
    assert r.returncode == 0, r.stderr
    assert v._repr_svg_() == out.read_text()
    assert f'data-view="{view}"' in v.svg() and v.svg(view=view) == v.svg()
    assert cells(v._repr_html_()) == cells(v.svg())


def test_a_swizzled_layout_draws_its_bit_matrix():
    v = cx.evaluate("composition(Sw<3,2,3>, (8,32):(32,1))")
    assert 'data-view="swizzle"' in v.svg()
    assert 'data-view="bits"' in v.svg(view="bits")


# --- LaTeX -----------------------------------------------------------------------------

def test_latex_is_what_render_writes_to_a_tex_file(tmp_path):
    for expr in ("(2,2):(1,2)", "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})",
                 "Sw<1,0,1> o 0 o (2,2):(2,1)", "make_layout_tv((2,2):(2,1), (1,2):(1,1))"):
        out = tmp_path / "cli.tex"
        r = cli("--expr", expr, str(out))
        assert r.returncode == 0, r.stderr
        v = cx.evaluate(expr)
        assert v.latex() == out.read_text(), expr
        v.save(tmp_path / "py.tex")
        assert (tmp_path / "py.tex").read_text() == out.read_text(), expr
    tex = cx.evaluate("(2,2):(1,2)").latex()
    assert tex.splitlines()[:6] == [
        "% Layout: (2,2):(1,2)",
        "\\documentclass[convert]{standalone}",
        "\\usepackage{tikz}",
        "",
        "\\begin{document}",
        "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, "
        "outer sep=0pt}]",
    ]
    assert "\\node[fill=black!40] at (1,0) {1};" in tex and tex.rstrip().endswith("\\end{document}")


def test_latex_of_a_value_made_by_a_call():
    # A Python call's value writes the same LaTeX as its text through evaluate.
    mma = cx.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN{}")
    tex = mma.latex()
    assert tex == cx.evaluate("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})").latex()
    assert tex.startswith("% LayoutC: ArithTuple(0,0) o ((4,8),((2,2),(1,1))):")
    assert "\\begin{tikzpicture}" in tex
    assert cx.make_layout((2, 2), stride=(1, 2)).latex() == cx.evaluate("(2,2):(1,2)").latex()
    assert cx.logical_divide("(4,2,3):(2,1,8)", "4:2").latex() == cx.evaluate(DIVIDED).latex()


def test_latex_equals_cpp_print_latex():
    # Every case of the C++ golden data (tools/oracle/latex.py): the `%` lines print static
    # integers without C++'s `_`, as every value of this project prints.
    def without_static_marks(tex):
        return "".join(re.sub(r"_(?=\d)", "", l) if l.startswith("%") else l
                       for l in tex.splitlines(keepends=True))

    with open(os.path.join(DATA, "latex-cases.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(l) for l in f if l.strip()]
    failures = []
    for c in rows:
        try:
            got = cx.evaluate(c["expr"]).latex()
        except cx.CuteError:
            got = "error"
        want = c["expect"] if c["expect"] == "error" else without_static_marks(c["expect"])
        if got != want:
            failures.append(c["expr"])
    assert not failures, f"{len(failures)} of {len(rows)} differ: {failures[:10]}"
    assert len(rows) > 100 and {c["op"] for c in rows} >= {"layout", "composed", "tv", "mma", "copy"}


def test_a_value_without_latex_raises_the_renderers_message(tmp_path):
    for v in (cx.evaluate("8"), cx.bank_conflicts("(32,64):(64,1)", 32, "(32,4):(1,32)", "LDS128")):
        with pytest.raises(cx.CuteError, match="print_latex draws a layout"):
            v.latex()
    with pytest.raises(cx.CuteError, match="no print_latex of a Copy_Atom"):
        cx.evaluate("atom(SM75_U32x4_LDSM_N, half_t)").latex()
    v = cx.evaluate("(4,4):(4,1)")
    # print_latex has one form: a drawing option for a .tex file is refused, not ignored.
    with pytest.raises(ValueError, match="takes no drawing options, got palette"):
        v.save(tmp_path / "a.tex", palette="colorblind")
    with pytest.raises(ValueError, match="unknown labels"):
        v.save(tmp_path / "a.tex", labels="nope")
    assert not (tmp_path / "a.tex").exists()
    with pytest.raises(cx.CuteError, match=r"use a \.svg, \.png or \.tex file name"):
        v.save(tmp_path / "a.pdf")


# --- explain ---------------------------------------------------------------------------

def test_explain_derives_a_call_step_by_step():
    a, b = cx.evaluate("(4,2,3):(2,1,8)"), "4:2"
    e = cx.explain(cx.logical_divide, a, b)
    assert e.kind == "an explanation"
    assert e.lines[0] == "logical_divide((4,2,3):(2,1,8), 4:2)"
    assert e.lines[-1] == f"=> {DIVIDED}"
    assert str(e) == "\n".join(e.lines) == str(cx.evaluate(f"explain({DIVIDE})"))
    assert e.result == cx.evaluate(DIVIDED) == cx.logical_divide(a, b)
    assert str(e.result) == DIVIDED
    # Every spelling gives the same derivation: the op's name, the value a call made, the
    # call's text, and the language's own explain(...).
    for other in (cx.explain("logical_divide", a, b),
                  cx.explain(cx.logical_divide(a, b)),
                  cx.explain(DIVIDE),
                  cx.explain(cx.evaluate(DIVIDE)),
                  cx.evaluate(f"explain({DIVIDE})"),
                  cx.evaluate(f"A = (4,2,3):(2,1,8)\nexplain(logical_divide(A, {b}))")):
        assert other.lines == e.lines
    # Drawn as the algebra view with the steps under it, the SVG of the same script.
    svg = e.svg()
    assert 'data-view="algebra"' in svg and "derivation, as CuTe computes it:" in svg
    assert svg == cx.evaluate(
        "A = (4,2,3):(2,1,8)\nB = 4:2\nexplain(logical_divide(A, B))").svg()
    assert e.title == "explain(logical_divide(A, B))"
    # It pickles as the call it explains.
    back = pickle.loads(pickle.dumps(e))
    assert back.lines == e.lines and back.svg() == svg
    assert pickle.loads(pickle.dumps(e.result)) == e.result


def test_explain_covers_the_algebra_ops():
    assert "composition" in cx.EXPLAINED and "raked_product" in cx.EXPLAINED
    assert cx.EXPLAINED == tuple(cx.EXPLAINED)
    cases = {
        "composition": ("(4,8):(8,1)", "(2,4):(4,1)"),
        "complement": ("4:2", 24),
        "coalesce": ("(2,(1,6)):(1,(6,2))",),
        "right_inverse": ("(4,8):(8,1)",),
        "zipped_divide": ("(4,6):(6,1)", "(2:1,3:1)"),
        "blocked_product": ("(2,2):(1,2)", "(2,3):(3,1)"),
    }
    for name, args in cases.items():
        e = cx.explain(getattr(cx, name), *args)
        assert e.lines[-1] == f"=> {getattr(cx, name)(*args)}", name


def test_explain_refuses_what_it_cannot_derive():
    with pytest.raises(cx.CuteError, match="explain derives a call of composition"):
        cx.explain(cx.size, "(4,8):(8,1)")
    with pytest.raises(cx.CuteError, match="'no_such_op' is not in the op table"):
        cx.explain("no_such_op", 1)
    with pytest.raises(cx.CuteError, match="logical_divide takes 2 arguments"):
        cx.explain(cx.logical_divide, "(4,8):(8,1)")
    with pytest.raises(cx.CuteError, match="explain takes one call"):
        cx.explain("(4,8):(8,1)")
    # The messages read as one sentence each (no gap where the source wraps them).
    with pytest.raises(cx.CuteError, match=r"pass the op and its operands, explain\("):
        cx.explain(cx.evaluate("A = (4,2,3):(2,1,8)\nlogical_divide(A, 4:2)"))
    with pytest.raises(cx.CuteError, match=r"its operands \(explain\("):
        cx.explain(cx.evaluate("(4,8):(8,1)"), 2)
    with pytest.raises(TypeError, match="explain takes an op .* a value a call made, or the call's text; got a builtin"):
        cx.explain(len, 1)
    # `lines` and `result` belong to explanations: other values have neither.
    v = cx.evaluate("(4,8):(8,1)")
    assert not hasattr(v, "lines") and not hasattr(v, "result")
    with pytest.raises(AttributeError, match="not an explanation"):
        v.lines


# --- functionally_equal ----------------------------------------------------------------

def test_functionally_equal_is_truthy_prints_why_and_draws_both():
    same = cx.functionally_equal("(4,2):(1,4)", "((2,2),2):((1,2),4)")
    assert bool(same) and str(same) == "true" and same.kind == "a comparison"
    assert same == True and same.data() is True  # noqa: E712
    differ = cx.functionally_equal("(4,2):(1,4)", "(4,2):(2,1)")
    assert not differ and differ.data() is False and differ == False  # noqa: E712
    assert str(differ) == "false: at index 1 = (1,0), A = 1 and B = 2; 6 of 8 differ"
    assert str(differ) == str(cx.evaluate("functionally_equal((4,2):(1,4), (4,2):(2,1))"))
    # Usable where Python wants a truth value.
    assert [x for x in ("(4,2):(1,4)", "(4,2):(2,1)") if cx.functionally_equal(x, "(4,2):(1,4)")] \
        == ["(4,2):(1,4)"]
    assert "6 of 8 differ" in repr(differ)
    # The compare view: A and B side by side, as the same script draws them.
    svg = differ.svg()
    assert 'data-view="compare"' in svg and differ._repr_svg_() == svg
    assert svg == cx.evaluate("A = (4,2):(1,4)\nB = (4,2):(2,1)\nfunctionally_equal(A, B)").svg()
    assert svg != cx.functionally_equal("(4,2):(1,4)", "(4,2):(1,4)").svg()
    # Values of any kind it compares: a swizzled layout against itself composed by hand.
    sw = cx.evaluate("Sw<2,0,2> o 0 o (4,4):(4,1)")
    assert cx.functionally_equal(sw, cx.evaluate("Sw<2,0,2> o 0 o (4,4):(4,1)"))
    assert not cx.functionally_equal(sw, "(4,4):(4,1)")
    # Different domains are unequal, with the sizes said.
    assert str(cx.functionally_equal("4:1", "8:1")).startswith("false: the domains differ")
    with pytest.raises(cx.CuteError, match="functionally_equal compares"):
        cx.functionally_equal(8, "4:1")
