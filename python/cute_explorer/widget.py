"""An interactive view for Jupyter, JupyterLab and VS Code (anywidget): the renderer's SVG
with wheel zoom, drag pan, double-click to fit, and the hover inspector.

    >>> from cute_explorer.widget import Widget      # needs `pip install anywidget`
    >>> Widget(cx.evaluate("Sw<3,4,3> o 0 o (64,64):(64,1)"), view="swizzle")
"""
try:
    import anywidget
    import traitlets
except ImportError as e:  # the package works without it; only this view needs it
    raise ImportError("cute_explorer.widget needs anywidget: pip install anywidget") from e

from . import Value, cell_keys

_ESM = r"""
function render({ model, el }) {
  const labels = Object.fromEntries(model.get("labels"));
  const box = document.createElement("div");
  box.style.cssText = "overflow:hidden;border:1px solid #ccc;max-height:70vh;cursor:grab";
  const out = document.createElement("pre");
  out.style.cssText = "margin:4px 0;min-height:1.3em;font-size:12px";
  out.textContent = "wheel: zoom · drag: pan · double-click: fit · hover a cell";
  el.append(box, out);
  let scale = 1, x = 0, y = 0, drag = null;
  const apply = () => {
    const svg = box.querySelector("svg");
    if (svg) { svg.style.transformOrigin = "0 0"; svg.style.transform = `translate(${x}px,${y}px) scale(${scale})`; }
  };
  const draw = () => { box.innerHTML = model.get("svg"); scale = 1; x = 0; y = 0; apply(); };
  box.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = box.getBoundingClientRect(), f = e.deltaY < 0 ? 1.1 : 1 / 1.1;
    const px = e.clientX - r.left, py = e.clientY - r.top;
    x = px - (px - x) * f; y = py - (py - y) * f; scale *= f; apply();
  }, { passive: false });
  box.addEventListener("pointerdown", (e) => { drag = [e.clientX - x, e.clientY - y]; box.setPointerCapture(e.pointerId); });
  box.addEventListener("pointermove", (e) => { if (drag) { x = e.clientX - drag[0]; y = e.clientY - drag[1]; apply(); } });
  box.addEventListener("pointerup", () => { drag = null; });
  box.addEventListener("dblclick", () => {
    const svg = box.querySelector("svg"); if (!svg) return;
    const w = svg.viewBox.baseVal.width || svg.clientWidth;
    scale = Math.min(1, box.clientWidth / w); x = 0; y = 0; apply();
  });
  box.addEventListener("mouseover", (e) => {
    const c = e.target.closest && e.target.closest("g.cell"); if (!c) return;
    out.textContent = c.getAttributeNames().filter((n) => n.startsWith("data-"))
      .map((n) => `${labels[n.slice(5)] || n.slice(5)}: ${c.getAttribute(n)}`).join("   ");
  });
  model.on("change:svg", draw);
  draw();
}
export default { render };
"""


class Widget(anywidget.AnyWidget):
    """A value's picture with zoom, pan and the inspector. Drawing options are `svg()`'s
    keyword arguments; `redraw(**options)` draws it again with others."""

    _esm = _ESM
    svg = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.List([]).tag(sync=True)

    def __init__(self, value, **options):
        if not isinstance(value, Value):
            raise TypeError(f"Widget takes a cute_explorer value, got {type(value).__name__}")
        self._value = value
        super().__init__(svg=value.svg(**options), labels=[list(k) for k in cell_keys()])

    def redraw(self, **options):
        self.svg = self._value.svg(**options)
