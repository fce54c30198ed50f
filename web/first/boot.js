// The page's boot (the build inlines it into index.html; `scripts/first-picture.sh` fills
// in the file names). A shared link's picture comes first, from the small first-picture
// module, in a stand-in of the page; the app is fetched after that paint, so its transfer
// does not delay the picture, and takes over in place (it removes the stand-in once it has
// drawn).
import initFirst, { first_picture } from './@FIRST@.js';

async function startApp() {
  const app = await import('./@APP@.js');
  const wasm = await app.default({ module_or_path: './@APP@_bg.wasm' });
  window.wasmBindings = app;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
}

async function paintFirst() {
  await initFirst({ module_or_path: './@FIRST@_bg.wasm' });
  const first = document.createElement('div');
  first.id = 'first';
  first.className = 'app';
  first.setAttribute('aria-busy', 'true');
  first.innerHTML =
    '<header class="bar"><h1>CuTe Layout Explorer</h1><span class="first-note">loading the editor…</span></header>' +
    '<main class="main"><section class="side"><textarea readonly aria-label="Expression"></textarea></section>' +
    '<section class="stage"><div class="zoombar"></div><div class="canvas-wrap"><div class="canvas" id="first-canvas"></div></div></section></main>';
  document.body.append(first);
  // The room the app's stage gives a drawing: its width and the height it grows to.
  const canvas = first.querySelector('#first-canvas');
  const maxH = parseFloat(getComputedStyle(canvas).maxHeight);
  const roomW = canvas.clientWidth - 8;
  const roomH = (Number.isFinite(maxH) ? maxH - 2 : canvas.clientHeight) - 8;
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const pic = first_picture(location.search, dark, roomW, roomH);
  if (!pic) {
    first.remove();
    return;
  }
  document.documentElement.dataset.theme = pic.theme;
  first.querySelector('textarea').value = pic.expr;
  canvas.innerHTML = pic.svg;
  canvas.firstElementChild.style.width = `${pic.width}px`;
  canvas.firstElementChild.style.height = `${pic.height}px`;
  pic.free();
}

try {
  await paintFirst();
} catch (e) {
  // The first picture only saves time: without it the app draws as before.
  console.warn('first picture:', e);
  document.getElementById('first')?.remove();
}
requestAnimationFrame(() => setTimeout(startApp, 0));
