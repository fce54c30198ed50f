// Which first-picture module the page fetches, chosen before the stylesheet so that the
// transfer starts at once (the build inlines this into index.html and fills in the names):
// the literal module when the link's expression is a layout or swizzle literal in a view it
// draws, the first-picture module otherwise. A hint only: the literal module draws nothing
// it cannot evaluate, and the boot then asks the other one.
(() => {
  const q = new URLSearchParams(location.search);
  const expr = q.get('expr');
  const view = q.get('view') ?? 'auto';
  const literal =
    expr !== null &&
    ['auto', 'layout', 'swizzle'].includes(view) &&
    /^\s*(Sw(izzle)?<[\d\s,]*>(\{\})?\s+o\s+\d+\s+o\s+)?[\s\d(),:]+$/.test(expr);
  const name = literal ? '@LITERAL@' : '@FIRST@';
  window.cuteFirst = name;
  const js = document.createElement('link');
  js.rel = 'modulepreload';
  js.href = `./${name}.js`;
  const wasm = document.createElement('link');
  wasm.rel = 'preload';
  wasm.href = `./${name}_bg.wasm`;
  wasm.as = 'fetch';
  wasm.type = 'application/wasm';
  wasm.crossOrigin = 'anonymous';
  document.head.append(js, wasm);
})();
