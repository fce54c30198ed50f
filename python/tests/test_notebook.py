"""python/examples/tour.ipynb runs top to bottom in a fresh kernel, and its outputs hold the
pictures (SVG) the package draws."""
import os

import nbclient
import nbformat

NOTEBOOK = os.path.join(os.path.dirname(__file__), "..", "examples", "tour.ipynb")


def test_the_tour_notebook_runs_and_draws():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    svgs = [o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    views = {v for s in svgs for v in ("layout", "algebra", "swizzle", "banks", "tv", "mma",
                                       "descriptor", "coalescing", "compare")
             if f'data-view="{v}"' in s}
    assert views == {"layout", "algebra", "swizzle", "banks", "tv", "mma", "descriptor",
                     "coalescing", "compare"}, views
    # explain's derivation, drawn with its steps; labels; print_latex's TikZ.
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "=> ((2,2),(2,3)):((4,1),(2,8))" in printed
    assert "True false: at index 1 = (1,0), A = 1 and B = 2; 6 of 8 differ" in printed
    assert "% Layout: (2,2):(1,2)" in printed and "\\begin{tikzpicture}" in printed
    assert any("derivation, as CuTe computes it:" in s for s in svgs)
    assert any(">((0,0),(1,2))</text>" in s for s in svgs)
    # A layout answers Python's protocols as CuTe: A(3, 5), shape, stride, rank, mode 1, ==.
    texts = [o["data"]["text/plain"] for o in outputs if "text/plain" in o.get("data", {})]
    assert any(t.startswith("(53, (8, 16), (16, 1), 2, <cute_explorer.Value a layout: 16:1>, True)")
               for t in texts), texts
    # The hover inspector travels with each picture.
    assert any("cx-inspect" in o["data"].get("text/html", "") for o in outputs if "data" in o)
