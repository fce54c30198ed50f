"""The Python package against the same golden data and renderer as the Rust crates.

Run from the repository root after `pip install ./python` (scripts/test.sh does both):
    pytest python/tests
"""
import json
import os
import subprocess
import sys

import pytest

import cute_explorer as cx

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "testdata")


def cases(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


@pytest.mark.parametrize("corpus", ["cute-cases.jsonl", "oracle-cases.jsonl", "tensor-cases.jsonl"])
def test_every_golden_line_equals_cpp(corpus):
    # The reference corpus (4,186 lines from the C++ headers), the oracle's edge cases and
    # the tensors: str(evaluate(expr)) is what C++ prints; C++'s refusals raise CuteError.
    failures = []
    rows = cases(corpus)
    for c in rows:
        try:
            got = str(cx.evaluate(c["expr"]))
        except cx.CuteError as e:
            got = "error: " + str(e)
        ok = got.startswith("error: ") if c["expect"] == "error" else got == c["expect"]
        if not ok:
            failures.append(f"{c['expr']}\n  expect {c['expect']}\n  got    {got}")
    assert not failures, f"{len(failures)} of {len(rows)} differ:\n" + "\n".join(failures[:20])
    assert len(rows) > 1000


def test_str_is_what_render_print_prints():
    script = "A = (4,8):(8,1)\nsize(A)\ncomposition(A, (2,4):(4,1))\nfoo(1)\n"
    text, ok = cx.print_script(script)
    assert not ok
    lines = text.splitlines()
    assert lines[:2] == ["32", str(cx.evaluate("A = (4,8):(8,1)\ncomposition(A, (2,4):(4,1))"))]
    assert lines[2].startswith("error: unknown function 'foo'")


# One expression per view, as the renderer's own tests draw them.
VIEWS = {
    "layout": "(8,32):(32,1)",
    "swizzle": "composition(Sw<3,2,3>, (8,32):(32,1))",
    "tv": "make_layout_tv((4,8):(8,1), (2,2):(2,1))",
    "mma": "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)",
    "copy": "make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))",
    "banks": "bank_conflicts(Sw<3,2,4> o 0 o (32,64):(64,1), 32, (32,4):(1,32), LDS128)",
    "search": "swizzle_search((8,32):(32,1), 32, (8,4):(1,8), LDS128)",
    "algebra": "zipped_divide((4,6):(6,1), (2:1,3:1))",
    "descriptor": "make_gmma_desc<GMMA::Major::MN>(composition(tile_to_shape(GMMA::Layout_MN_SW32_Atom<half_t>{}, Shape<_32,_32>{}), make_tile(_32{}, _16{})))",
    "tmem": "atom(SM100_TMEM_LOAD_16dp256b1x)",
    "tma": "make_tma_copy(make_layout(make_shape(256, 512), make_stride(512, _1{})), tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, Shape<_16,_16>{}))",
    "partition": "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}).get_slice(5).partition_A(make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<16>{}, Int<16>{}), LayoutRight{}))",
    "coalescing": "coalescing(make_tensor(make_gmem_ptr<half_t>(48), make_shape(64, 32), make_stride(40, 1)), make_tiled_copy(atom(UniversalCopy_64, half_t), (16,8):(8,1), (1,4)))",
}


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_repr_svg_is_the_renderers_svg(view, tmp_path):
    expr = VIEWS[view]
    v = cx.evaluate(expr)
    out = tmp_path / "cli.svg"
    # The render command line (python -m cute_explorer) writes the file the CLI writes.
    r = subprocess.run([sys.executable, "-m", "cute_explorer", "--expr", expr, str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert v._repr_svg_() == out.read_text()
    assert f'data-view="{view}"' in v.svg(view=view)
    html = v._repr_html_()
    assert html.count("<svg") == 1 and "cx-inspect" in html


def test_drawing_options_and_files(tmp_path):
    v = cx.evaluate("(8,8):(8,1)")
    assert v.svg(theme="dark") != v.svg()
    tv = cx.evaluate("make_layout_tv((4,8):(8,1), (2,2):(2,1))")
    assert tv.svg(palette="colorblind") != tv.svg()
    assert 'class="cell dim"' in tv.svg(highlight_thread=3)
    png = v.png(2.0)
    assert png[1:4] == b"PNG"
    v.save(tmp_path / "a.svg")
    v.save(tmp_path / "a.png", scale=0.5)
    assert (tmp_path / "a.svg").read_text().startswith("<svg")
    assert (tmp_path / "a.png").read_bytes()[1:4] == b"PNG"
    with pytest.raises(cx.CuteError, match="cannot tell the format"):
        v.save(tmp_path / "a.jpg")
    with pytest.raises(cx.CuteError, match="unknown view 'nope'"):
        v.svg(view="nope")
    with pytest.raises(cx.CuteError, match="scale"):
        v.png(0)


def test_op_functions_come_from_the_table():
    names = {r["name"] for r in cx.op_table()}
    assert {"composition", "logical_divide", "bank_conflicts", "coalescing", "make_tiled_mma"} <= names
    for n in ("composition", "logical_divide", "make_layout", "bank_conflicts", "swizzle_search",
              "make_tiled_mma", "make_gmma_desc", "coalescing", "local_tile"):
        assert callable(getattr(cx, n)), n
    assert "composition(" in cx.composition.__doc__
    # Python's own names keep their meaning.
    assert cx.__dict__.get("tuple") is None and tuple is __builtins__["tuple"] if isinstance(__builtins__, dict) else True


def test_calls_values_ints_tuples_and_reports():
    a = cx.evaluate("(4,8):(8,1)")
    assert cx.size(a) == 32 and cx.shape(a) == (4, 8)
    c = cx.composition(a, "(2,4):(4,1)")
    assert str(c) == str(cx.evaluate("composition((4,8):(8,1), (2,4):(4,1))"))
    assert c.title == "composition(A, B)"
    # The algebra view draws the operands beside the result, as `render` does for the script.
    assert c.svg(view="algebra") == cx.evaluate(
        "A = (4,8):(8,1)\nB = (2,4):(4,1)\ncomposition(A, B)").svg(view="algebra")
    assert str(cx.logical_divide("(8,32):(32,1)", (2, 4))) == str(
        cx.evaluate("logical_divide((8,32):(32,1), (2,4))"))
    b = cx.bank_conflicts("(32,64):(64,1)", 32, "(32,4):(1,32)", "LDS128")
    d = b.data()
    assert (d["wavefronts"], d["ideal"], d["ways"]) == (32, 4, 8)
    assert 'data-view="banks"' in b._repr_svg_()
    g = cx.coalescing("(32,32):(32,1)", "float", cx.evaluate(
        "make_tiled_copy(atom(UniversalCopy_32, float), (32,1):(1,32), (1,1))"))
    assert (g.data()["sectors"], g.data()["min_sectors"]) == (32, 4)


def test_a_call_draws_at_the_width_its_value_fixes():
    # A float GMMA atom made by a call (no block to ask) is drawn with 32-bit banks, as the
    # same text through evaluate is; the default width is 16 bits.
    atom = "GMMA::Layout_K_SW128_Atom<float>{}"
    t = cx.tile_to_shape(atom, "make_shape(_8{}, _64{})")
    assert "smem_ptr[32b]" in str(t)
    svg = t.svg(view="swizzle")
    assert "32-bit elements (from smem_ptr[32b]" in svg
    assert svg == cx.evaluate(
        f"A = {atom}\nB = make_shape(_8{{}}, _64{{}})\ntile_to_shape(A, B)").svg(view="swizzle")


def cute_data(text):
    """C++'s printed int-tuple as Python data, its 1-tuples kept: `((2,3),(4))` is
    ((2, 3), (4,))."""
    pos = 0

    def item():
        nonlocal pos
        if text[pos] == "(":
            pos += 1
            out = [item()]
            while text[pos] == ",":
                pos += 1
                out.append(item())
            assert text[pos] == ")", text
            pos += 1
            return tuple(out)
        end = pos
        while end < len(text) and (text[end].isdigit() or text[end] == "-"):
            end += 1
        n, pos = int(text[pos:end]), end
        return n

    v = item()
    assert pos == len(text), text
    return v


def split_call(expr):
    """`LAYOUT(ARGS)` of the eval_coord / eval_idx lines: the layout's text and the args."""
    depth = 0
    for i in range(len(expr) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(expr[i], 0)
        if depth == 0:
            return expr[:i], cute_data("(" + expr[i + 1:-1] + ",0)")[:-1]
    raise AssertionError(expr)


def test_a_layout_called_from_python_equals_cpp():
    # v(coord) and v(idx) of every eval_coord / eval_idx line of the reference corpus (C++
    # golden data), with the coordinate passed as Python ints and tuples.
    rows = [c for c in cases("cute-cases.jsonl") if c["op"] in ("eval_coord", "eval_idx")]
    failures = []
    for c in rows:
        layout, args = split_call(c["expr"])
        try:
            got = str(cx.evaluate(layout)(*args))
        except cx.CuteError as e:
            got = "error"
        if got != c["expect"]:
            failures.append(f"{c['expr']}: {layout} called with {args}: {got}, C++ {c['expect']}")
    assert not failures, "\n".join(failures[:20])
    assert len(rows) == 500


def test_values_compare_hash_and_unpack_as_cpp_and_pycute_do():
    # Every layout C++ computes in the corpus: == the value its print spells, hashes alike,
    # and its shape, stride, rank and modes are C++'s (shape(L), stride(L), rank(L), get<i>).
    n = 0
    for c in cases("cute-cases.jsonl"):
        if c["expect"] == "error" or ":" not in c["expect"] or " o " in c["expect"]:
            continue
        v, printed = cx.evaluate(c["expr"]), cx.evaluate(c["expect"])
        assert v == printed and not (v != printed) and hash(v) == hash(printed), c
        shape_text, stride_text = c["expect"].split(":")
        shape, stride = cute_data(shape_text), cute_data(stride_text)
        assert (v.shape, v.stride) == (shape, stride), c
        modes = shape if isinstance(shape, tuple) else (shape,)
        assert len(v) == len(modes), c
        assert [m.shape for m in v] == list(modes), c
        assert v[-1].shape == modes[-1]
        n += 1
    assert n > 2000
    a = cx.evaluate("(4,8):(8,1)")
    # C++'s == on values: static and dynamic integers alike, other layouts not.
    dynamic = cx.evaluate("make_layout(make_shape(4, 8), make_stride(8, 1))")
    assert a == dynamic and hash(a) == hash(dynamic)
    assert a != cx.evaluate("(4,8):(1,4)") and a != cx.evaluate("Sw<0,4,3> o 0 o (4,8):(8,1)")
    # Ints, tuples and pycute / tensor-layouts objects spell a value; text never equals one.
    assert cx.evaluate("size((4,8):(8,1))") == 32 and hash(cx.evaluate("32")) == hash(32)
    assert cx.evaluate("(2,(3,4))") == (2, (3, 4)) and a != "(4,8):(8,1)" and a != None
    truth = cx.evaluate("congruent((2,3),(4,5))")
    assert truth == True and hash(truth) == hash(True) and cx.evaluate("8") != "8"  # noqa: E712
    assert {a: "tile"}[cx.evaluate("(4,8):(8,1)")] == "tile"
    m, n = a.shape
    assert (m, n, a(3, 5), a((3, 5)), a(23), a(4)) == (4, 8, 29, 29, 29, 1)
    assert a[0, 0] == cx.evaluate("4:8") and len(cx.evaluate("(2,(3,4))")) == 2
    with pytest.raises(IndexError):
        a[2]
    with pytest.raises(TypeError):
        a[1.5]
    # A swizzle and a composed layout are functions too; a composed layout has no stride
    # (C++ deletes it), so hasattr is false.
    sw = cx.evaluate("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert sw(3, 5) == 213 and sw.shape == (8, 64) and not hasattr(sw, "stride")
    assert cx.evaluate("Sw<3,4,3>")(1000) == 920
    # A TiledMMA has no rank: len raises TypeError with the language's message; it still
    # compares, hashes and is true.
    mma = cx.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN{}")
    with pytest.raises(TypeError, match="rank"):
        len(mma)
    assert mma == cx.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN{}") and bool(mma)
    assert not cx.evaluate("0") and list(range(cx.evaluate("3"))) == [0, 1, 2]
    try:
        import pycute
    except ImportError:
        pycute = None
    if pycute is not None:
        assert a == pycute.Layout((4, 8), (8, 1)) and a != pycute.Layout((4, 8), (1, 4))


def test_values_pickle_and_copy_as_the_text_they_evaluate_from():
    import copy
    import pickle
    mma = cx.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN{}")
    atom = cx.tile_to_shape("GMMA::Layout_K_SW128_Atom<float>{}", "make_shape(_8{}, _64{})")
    values = [
        cx.evaluate("(4,8):(8,1)"),
        cx.evaluate("A = (4,8):(8,1)\ncomposition(A, (2,4):(4,1))"),
        cx.composition("(4,8):(8,1)", (2, 4)),
        cx.make_layout((8, 64), stride=(64, 1)),
        mma,
        cx.get_layoutC_TV(mma),  # an operand that is a call's value, written as its call
        atom,
        cx.logical_divide(atom, (8, 32)),  # an operand printed smem_ptr[32b](unset), read back
        cx.evaluate("S<3,4,3> o 0 o (8,64):(64,1)")[1],
    ]
    for v in values:
        back = pickle.loads(pickle.dumps(v))
        assert back == v and str(back) == str(v) and back.svg() == v.svg(), back.script
        assert copy.copy(v) is v and copy.deepcopy([v])[0] is v
    # An operand with no line of its own (a block's value) that does not print as text that
    # reads back (a TiledMMA): pickling raises rather than changing the value.
    block = cx.evaluate("M = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})\nM")
    assert pickle.loads(pickle.dumps(block)) == block
    with pytest.raises(TypeError, match="cannot pickle a layout made by get_layoutC_TV"):
        pickle.dumps(cx.get_layoutC_TV(block))


def test_numpy_integers_are_ints():
    import numpy as np  # in the test environment with nvidia-cutlass (pycute)
    a = cx.make_layout((np.int64(8), np.int32(4)))
    assert a == cx.evaluate("(8,4):(1,8)") and a(np.int64(3), 2) == 19
    assert cx.size(np.array(5)) == 5
    with pytest.raises(cx.CuteError, match="bool"):
        cx.make_layout((np.bool_(True), 2))
    for not_one_int in (np.array([8, 4]), np.array(2.5)):
        with pytest.raises(cx.CuteError, match="expected an int"):
            cx.make_layout(not_one_int)


def test_pycute_tensor_layouts_and_dsl_prints_are_accepted():
    class PyCuteLike:  # pycute's Layout: shape and stride attributes
        shape, stride = (4, (2, 2)), (2, (1, 8))
    assert cx.to_text(PyCuteLike()) == "(4,(2,2)):(2,(1,8))"
    # What CuTeDSL prints for a swizzled layout.
    assert str(cx.evaluate("S<3,4,3> o 0 o (8,64):(64,1)")) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert str(cx.coalesce("S<3,4,3> o 0 o (8,64):(64,1)")) == str(cx.evaluate("coalesce(Sw<3,4,3> o 0 o (8,64):(64,1))"))
    try:
        import pycute
    except ImportError:
        pycute = None
    if pycute is not None:
        l = pycute.Layout((4, 8), (8, 1))
        assert cx.size(l) == 32
        comp = pycute.ComposedLayout(pycute.Swizzle(3, 4, 3), 0, pycute.Layout((8, 64), (64, 1)))
        assert cx.to_text(comp) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
        assert str(cx.composition(l, pycute.Layout((2, 4), (4, 1)))) == str(
            cx.evaluate("composition((4,8):(8,1), (2,4):(4,1))"))
    try:
        import tensor_layouts as tl
    except ImportError:
        tl = None
    if tl is not None:
        assert cx.to_text(tl.Layout((4, 8), (8, 1))) == "(4,8):(8,1)"
        comp = tl.ComposedLayout(tl.Swizzle(3, 4, 3), tl.Layout((8, 64), (64, 1)))
        assert str(cx.evaluate(cx.to_text(comp))) == "Sw<3,4,3> o 0 o (8,64):(64,1)"


def test_errors_raise_with_the_column():
    with pytest.raises(cx.CuteError) as e:
        cx.evaluate("composition((4,8):(8,1), (2,4):(4,1)")
    assert e.value.column is not None and "column" in str(e.value)
    with pytest.raises(cx.CuteError) as e:
        cx.evaluate("Sw<3,0,2>")
    assert e.value.message
    with pytest.raises(cx.CuteError, match="not in the op table"):
        cx._native.call("no_such_op", [])
    with pytest.raises(cx.CuteError):
        cx.size(object())
    with pytest.raises(cx.CuteError):
        cx.make_layout((1 << 62, 1 << 62))


def test_hostile_input_never_crashes():
    # Every hostile line of the Rust tests: an exception or a value, never a crash.
    with open(os.path.join(DATA, "bad-inputs.txt"), encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    for line in lines:
        try:
            cx.evaluate(line)
        except cx.CuteError:
            pass
    assert len(lines) > 100


def test_python_m_is_the_cli():
    r = subprocess.run([sys.executable, "-m", "cute_explorer", "--print", "size((4,8):(8,1))"],
                       capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "32\n")
    r = subprocess.run([sys.executable, "-m", "cute_explorer", "--print", "foo(1)"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout.startswith("error:")


def test_the_widget_carries_the_renderers_svg():
    from cute_explorer.widget import Widget

    v = cx.evaluate("Sw<3,4,3> o 0 o (16,64):(64,1)")
    w = Widget(v, view="swizzle", palette="colorblind")
    assert w.svg == v.svg(view="swizzle", palette="colorblind")
    assert ["offset", "offset"] in w.labels or any(k == "offset" for k, _ in w.labels)
    w.redraw(view="layout")
    assert 'data-view="layout"' in w.svg
    with pytest.raises(TypeError):
        Widget("(4,8):(8,1)")


def test_unknown_drawing_options_are_named():
    v = cx.evaluate("(4,4):(4,1)")
    with pytest.raises(cx.CuteError, match="unknown drawing option 'colour'"):
        v.svg(colour="red")
    with pytest.raises(cx.CuteError, match="bits=12"):
        v.svg(bits=12)
    with pytest.raises(cx.CuteError, match="warp= takes a warp index"):
        v.svg(warp=-1)
    assert v.svg(view=None) == v.svg()


def test_report_is_render_report():
    """`report(text)` is what `render --report` prints (Markdown) and its JSON; a notebook
    shows the Markdown; a configuration without an MMA raises naming it."""
    path = os.path.join(ROOT, "crates", "cute-lang", "kernels", "broken_sm80.cpp")
    with open(path) as f:
        src = f.read()
    r = cx.report(src)
    md = subprocess.run([sys.executable, "-m", "cute_explorer", "--report", path],
                        capture_output=True, text=True)
    assert md.returncode == 1 and md.stdout == str(r) == r._repr_markdown_()
    js = subprocess.run([sys.executable, "-m", "cute_explorer", "--report", path, "--format", "json"],
                        capture_output=True, text=True)
    assert json.loads(js.stdout) == r.data
    assert r.verdict == "fail"
    s2r = next(s for s in r.sections if s["name"] == "s2r_atom_A")
    assert s2r["verdict"] == "warn" and s2r["warnings"][0]["fix"].startswith("use Sw<3,3,3>")
    with pytest.raises(cx.CuteError, match="no TiledMMA"):
        cx.report("auto sA = make_layout(make_shape(Int<64>{}, Int<32>{}));")


def test_the_kernel_view_of_a_block(tmp_path):
    """A pasted configuration draws as its kernel report (`view="kernel"`), the SVG
    `render --view kernel` writes."""
    path = os.path.join(ROOT, "crates", "cute-lang", "kernels", "sm80_tutorial.cpp")
    with open(path) as f:
        v = cx.evaluate(f.read())
    out = tmp_path / "kernel.svg"
    r = subprocess.run([sys.executable, "-m", "cute_explorer", "--expr", "@" + path, "--view", "kernel", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    svg = v.svg(view="kernel")
    assert 'data-view="kernel"' in svg and svg == out.read_text()


def test_a_collective_builder_line():
    """A CUTLASS CollectiveBuilder block (epilogue + mainloop) reports its resolution, and its
    members are values: the stages, the smem layout, the epilogue's SharedStorage bytes."""
    path = os.path.join(ROOT, "crates", "cute-lang", "kernels", "sm90_collective_builder.cpp")
    with open(path) as f:
        src = f.read()
    r = cx.report(src)
    # The no-smem epilogue stores each accumulator alone: 4x the sectors a tile needs.
    assert r.verdict == "warn"
    c = next(s for s in r.sections if s["name"] == "CollectiveMainloop")
    assert c["kind"] == "collective" and c["headline"].startswith("7 stages of 128x128x64")
    d = next(s for s in r.sections if s["name"] == "CollectiveEpilogue (D)")
    assert d["headline"].startswith("STG.E.U16 from registers: 4096 sectors (min 1024) per CTA")
    v = cx.evaluate(src + "\nCollectiveMainloop::DispatchPolicy::Stages")
    assert str(v) == "7"
    v = cx.evaluate(src + "\nCollectiveMainloop::SmemLayoutA{}")
    assert str(v) == "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,7)):((64,512),(1,0),(0,8192))"
    coop = src.replace("cutlass::epilogue::collective::EpilogueScheduleAuto",
                       "cutlass::epilogue::TmaWarpSpecializedCooperative")
    assert str(cx.evaluate(coop + "\nsizeof(typename CollectiveEpilogue::SharedStorage)")) == "33792"
    assert str(cx.evaluate(coop + "\nCollectiveMainloop::DispatchPolicy::Stages")) == "6"
    with pytest.raises(cx.CuteError, match="TMA alignment"):
        cx.evaluate(src.replace("constexpr int AlignmentA = 128 /", "constexpr int AlignmentA = 32 /"))


def test_blackwell_builder_lines():
    """SM100's builders: the 2-SM UMMA KernelScheduleAuto picks on a 2x2 cluster, the TMEM
    accumulator stages, the epilogue's tile of TMEM warps; SM120's 99 KiB warning."""
    kernels = os.path.join(ROOT, "crates", "cute-lang", "kernels")
    with open(os.path.join(kernels, "sm100_builder_2sm.cpp")) as f:
        src = f.read()
    r = cx.report(src)
    c = next(s for s in r.sections if s["name"] == "CollectiveMainloop")
    assert c["headline"].startswith("8 stages of 256x128x64, SM100_MMA_F16BF16_2x1SM_SS")
    assert str(cx.evaluate(src + "\nCollectiveMainloop::DispatchPolicy::Schedule::AccumulatorPipelineStageCount")) == "4"
    assert str(cx.evaluate(src + "\nsizeof(typename CollectiveEpilogue::SharedStorage)")) == "33792"
    assert str(cx.evaluate(src + "\ntypename CollectiveEpilogue::EpilogueTile{}")) == "(128:1,16:1)"
    # The kernel's using lines, as CUTLASS's examples end the block: its members are the collectives.
    assert str(cx.evaluate(src + "\nGemm::GemmKernel::CollectiveMainloop::DispatchPolicy::Stages")) == "8"
    with open(os.path.join(kernels, "sm120_builder.cpp")) as f:
        sm120 = f.read()
    # StageCountAuto leaves the epilogue no room: over SM120's 99 KiB.
    assert cx.report(sm120).verdict == "fail"
    with pytest.raises(cx.CuteError, match="Only TN layout is supported"):
        cx.evaluate(sm120.replace("LayoutA = cutlass::layout::RowMajor", "LayoutA = cutlass::layout::ColumnMajor"))


def test_block_scaled_builder_lines():
    """SM100's block-scaled builder: NVFP4 operands take the 2-SM MXF4 UMMA, the scale
    factors are staged and loaded beside A and B; a wrong data type is CUTLASS's error."""
    kernels = os.path.join(ROOT, "crates", "cute-lang", "kernels")
    with open(os.path.join(kernels, "sm100_blockscaled.cpp")) as f:
        src = f.read()
    r = cx.report(src)
    assert r.verdict == "ok"
    names = [s["name"] for s in r.sections]
    assert "CollectiveMainloop::SmemLayoutSFA" in names and "CollectiveMainloop::GmemTiledCopySFB" in names
    assert str(cx.evaluate(src + "\nCollectiveMainloop::DispatchPolicy::Stages")) == "3"
    assert str(cx.evaluate(src + "\ntypename CollectiveMainloop::SmemLayoutSFB{}")) == \
        "((((32,4),2),(16,4)),1,(1,4),3):((((16,4),512),(0,1)),0,(4,1024),4096)"
    assert str(cx.evaluate(src + "\nCollectiveMainloop::TmaTransactionBytes")) == "77824"
    assert str(cx.evaluate(src + "\nElementA::ScaleFactorType{}")) == "float_ue4m3_t"
    with pytest.raises(cx.CuteError, match="can have scale factors for NVFP4"):
        cx.evaluate(src.replace("nv_float4_t<cutlass::float_e2m1_t>", "nv_float4_t<cutlass::half_t>", 1))
    # SM120's: eight warps of the block-scaled mma.sync, the scale factors staged beside A
    # and B in 99 KiB; no cluster.
    with open(os.path.join(kernels, "sm120_blockscaled.cpp")) as f:
        geforce = f.read()
    assert cx.report(geforce).verdict == "ok"
    assert str(cx.evaluate(geforce + "\nCollectiveMainloop::DispatchPolicy::Stages")) == "4"
    assert str(cx.evaluate(geforce + "\nsizeof(typename CollectiveMainloop::SharedStorage)")) == "74752"
    assert str(cx.evaluate(geforce + "\ntypename CollectiveMainloop::SmemLayoutSFA{}")) == \
        "(((32,4),1),((16,4),1,2),4):(((16,4),512),((0,1),4,512),1024)"
    with pytest.raises(cx.CuteError, match="no programmatic multicast on this arch"):
        cx.evaluate(geforce.replace("ClusterShape = Shape<_1,_1,_1>", "ClusterShape = Shape<_2,_1,_1>"))


def test_builder_blocks_with_fusion_buffers():
    """An FP8 epilogue fusion with an aux output and an NVFP4 one with output scale factors:
    the report resolves both, the epilogue's shared memory holds the aux's stages, the
    fusion's member types and the scale factors' layouts are values."""
    data = os.path.join(ROOT, "crates", "cute-render", "tests", "data")
    with open(os.path.join(data, "fusion_fp8_amax_aux_sm90.cpp")) as f:
        hopper = f.read()
    r = cx.report(hopper)
    e = next(s for s in r.sections if s["name"] == "CollectiveEpilogue")
    assert "4 C / 2 D stages, 33 KiB of shared memory" in e["headline"]
    assert str(cx.evaluate(hopper + "\nsizeof(CollectiveEpilogue::SharedStorage)")) == "33792"
    assert str(cx.evaluate(hopper + "\nEpilogueOutputOp::ElementAux")) == "float_e4m3_t"
    assert str(cx.evaluate(hopper + "\nIsAuxFp8")) == "1"
    with open(os.path.join(data, "fusion_nvfp4_sfd_sm100.cpp")) as f:
        nvfp4 = f.read()
    assert cx.report(nvfp4).verdict == "ok"
    assert str(cx.evaluate(nvfp4 + "\nLayoutSFD{}")) == \
        "(((32,4),0),((16,4),0),(1,0)):(((16,4),0),((0,1),512),(0,0))"
    assert str(cx.evaluate(nvfp4 + "\nCollectiveMainloop::DispatchPolicy::Stages")) == "4"
    with pytest.raises(cx.CuteError, match="EpilogueTileN should be divisible by SFVecSize"):
        cx.evaluate(nvfp4.replace("OutputSFVectorSize = InputSFVectorSize", "OutputSFVectorSize = 7"))


def test_host_function_and_blackwell_dsl_setup():
    """A tutorial-style host function reports with its left-out lines noted; CuTeDSL's
    Blackwell dense-GEMM helpers and stage computation evaluate to the DSL's values."""
    kernels = os.path.join(ROOT, "crates", "cute-lang", "kernels")
    with open(os.path.join(kernels, "sm80_host_function.cpp")) as f:
        host = f.read()
    r = cx.report(host)
    h = next(s for s in r.sections if s["kind"] == "host")
    assert h["name"] == "gemm_tn(...)"
    assert h["headline"] == "10 parameters without a value, 13 lines left out"
    assert any(s["name"] == "mmaC" for s in r.sections)
    with open(os.path.join(kernels, "sm100_dsl.py")) as f:
        dsl = f.read()
    assert str(cx.evaluate(dsl + "\nepi_tile")) == "(128:1,32:1)"
    assert str(cx.evaluate(dsl + "\n(num_acc_stage, num_ab_stage, num_c_stage)")) == "(1,4,2)"
    assert str(cx.evaluate(dsl + "\ncopy_atom_t2r")).startswith("Copy_Atom SM100_TMEM_LOAD_32dp32b32x")
    assert cx.report(dsl).verdict == "ok"


def test_epilogue_fusion_argument():
    """An elementwise fusion (LinCombEltAct) builds the default's TMA epilogue; SM90's
    automatic (no-smem) epilogue refuses it in CUTLASS's words; a fusion with a bias is a
    value; the top-k softmax fusion is a clear 'not resolved yet'."""
    e = ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp, "
         "Shape<_256,_128,_64>, Shape<_2,_1,_1>, cutlass::epilogue::collective::EpilogueTileAuto, float, float, "
         "cutlass::half_t, cutlass::layout::RowMajor, 8, cutlass::half_t, cutlass::layout::RowMajor, 8, %s%s>::CollectiveOp")
    relu = ", cutlass::epilogue::fusion::LinCombEltAct<cutlass::epilogue::thread::ReLU, cutlass::half_t, float>"
    auto = "cutlass::epilogue::collective::EpilogueScheduleAuto"
    assert str(cx.evaluate("sizeof(typename %s::SharedStorage)" % (e % (auto, relu)))) == "33792"
    with pytest.raises(cx.CuteError, match="Auto schedule doesn't support fusion"):
        cx.evaluate("sizeof(typename %s::SharedStorage)" % (e % (auto, relu)).replace("Sm100", "Sm90"))
    with pytest.raises(cx.CuteError, match="this epilogue fusion is not resolved yet"):
        cx.evaluate("cutlass::epilogue::fusion::LinCombTopKSoftmaxCol<2, cutlass::half_t, float>{}")
    bias = cx.evaluate("cutlass::epilogue::fusion::LinCombPerRowBias<cutlass::half_t, float>::AlignmentBias")
    assert str(bias) == "8"
