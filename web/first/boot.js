// The page's boot (the build inlines it into index.html; `scripts/first-picture.sh` fills
// in the file names). A shared link's picture comes first, from the small first-picture
// module, in a stand-in of the page. The app's transfer starts once the module has arrived
// (so it does not slow the picture down, and it overlaps drawing it); the app takes over in
// place and removes the stand-in once it has drawn.
async function startApp() {
  const app = await import('./@APP@.js');
  const wasm = await app.default({ module_or_path: './@APP@_bg.wasm' });
  window.wasmBindings = app;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
}

// The link's picture in a stand-in of the page, or nothing (the app draws it then).
function paintFirst(first_picture) {
  const stand = document.createElement('div');
  stand.id = 'first';
  stand.className = 'app';
  stand.setAttribute('aria-busy', 'true');
  stand.innerHTML =
    '<header class="bar"><h1>CuTe Layout Explorer</h1><span class="first-note">loading the editor…</span></header>' +
    '<main class="main"><section class="side"><textarea readonly aria-label="Expression"></textarea></section>' +
    '<section class="stage"><div class="zoombar"></div><div class="canvas-wrap"><div class="canvas" id="first-canvas"></div></div></section></main>';
  document.body.append(stand);
  // The room the app's stage gives a drawing: its width and the height it grows to.
  const canvas = stand.querySelector('#first-canvas');
  const maxH = parseFloat(getComputedStyle(canvas).maxHeight);
  const roomW = canvas.clientWidth - 8;
  const roomH = (Number.isFinite(maxH) ? maxH - 2 : canvas.clientHeight) - 8;
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const pic = first_picture(location.search, dark, roomW, roomH);
  performance.mark('first:drawn');
  if (!pic) {
    stand.remove();
    return;
  }
  document.documentElement.dataset.theme = pic.theme;
  stand.querySelector('textarea').value = pic.expr;
  canvas.innerHTML = pic.svg;
  canvas.firstElementChild.style.width = `${pic.width}px`;
  canvas.firstElementChild.style.height = `${pic.height}px`;
  pic.free();
  performance.mark('first:in-dom');
}

// The first picture only saves time: whatever fails in it, the app draws as before.
let first = null;
try {
  first = await import('./@FIRST@.js');
  await first.default({ module_or_path: './@FIRST@_bg.wasm' });
  performance.mark('first:loaded');
} catch (e) {
  console.warn('first picture:', e);
  first = null;
}
startApp();
try {
  if (first) paintFirst(first.first_picture);
} catch (e) {
  console.warn('first picture:', e);
  document.getElementById('first')?.remove();
}
