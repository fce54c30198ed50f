// The page's boot (the build inlines it into index.html; `scripts/first-picture.sh` fills
// in the file names). A shared link's picture comes first, from a small first-picture
// module, in a stand-in of the page. The app's transfer starts once the picture is drawn
// (so it does not slow the picture down); the app takes over in place and removes the
// stand-in once it has drawn.
async function startApp() {
  const app = await import('./@APP@.js');
  const wasm = await app.default({ module_or_path: './@APP@_bg.wasm' });
  window.wasmBindings = app;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
}

// A stand-in of the page, built while the module is on its way (its style and layout are
// then off the picture's path): the app's bar, editor and stage, and the room the stage
// gives a drawing (its width, and the height it grows to).
function standIn() {
  const stand = document.createElement('div');
  stand.id = 'first';
  stand.className = 'app';
  stand.setAttribute('aria-busy', 'true');
  stand.innerHTML =
    '<header class="bar"><h1>CuTe Layout Explorer</h1><span class="first-note">loading the editor…</span></header>' +
    '<main class="main"><section class="side"><nav class="sheets"><button class="sheet active" disabled>A</button><button class="sheet" disabled>+</button><button class="sheet variant" disabled>Compare a variant</button></nav><div class="tabs"><button class="active" disabled>Expression</button><button disabled>Form</button></div>' +
    '<label class="editor-label">CuTe expression or script (<code>NAME = expr</code> binds; the last line is drawn)</label>' +
    '<textarea rows="6" readonly aria-label="Expression"></textarea></section>' +
    '<section class="stage"><div class="zoombar"></div><div class="canvas-wrap"><div class="canvas" id="first-canvas"></div></div></section></main>';
  document.body.append(stand);
  const canvas = stand.querySelector('#first-canvas');
  const maxH = parseFloat(getComputedStyle(canvas).maxHeight);
  const roomW = canvas.clientWidth - 8;
  const roomH = (Number.isFinite(maxH) ? maxH - 2 : canvas.clientHeight) - 8;
  return { stand, canvas, roomW, roomH };
}

// The link's picture in the stand-in; false when the module has none. The grids whose
// cells the SVG leaves out (a big figure's) are painted under it from one pixel a cell, as
// the app paints them.
function paintFirst(module, { stand, canvas, roomW, roomH }) {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  // A head, the expression and the SVG, joined by NULs (web/first/src/lib.rs `first`).
  const pic = module.first(location.search, dark, roomW, roomH);
  performance.mark('first:drawn');
  if (pic == null) return false;
  const at = pic.indexOf('\0');
  const at2 = pic.indexOf('\0', at + 1);
  const [width, height, theme, millionths, ...grids] = pic.slice(0, at).split(' ');
  const zoom = Number(millionths) / 1e6;
  document.documentElement.dataset.theme = theme;
  stand.querySelector('textarea').value = pic.slice(at + 1, at2);
  const layer = document.createElement('div');
  layer.style.cssText = `position:relative;width:${width}px;height:${height}px`;
  grids.forEach((g, i) => {
    const [x, y, w, h, cols, rows] = g.split(',').map(Number);
    const bitmap = document.createElement('canvas');
    bitmap.width = cols;
    bitmap.height = rows;
    const rgba = module.first_fills(i);
    bitmap.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), cols, rows), 0, 0);
    bitmap.className = 'first-fills';
    bitmap.style.cssText = `position:absolute;left:${x * zoom}px;top:${y * zoom}px;width:${w * zoom}px;height:${h * zoom}px;image-rendering:pixelated`;
    layer.append(bitmap);
  });
  layer.insertAdjacentHTML('beforeend', pic.slice(at2 + 1));
  const svg = layer.lastElementChild;
  // Above the fills (positioned, later in the tree), through the holes it leaves.
  svg.style.cssText = `position:relative;width:${width}px;height:${height}px`;
  canvas.append(layer);
  performance.mark('first:in-dom');
  return true;
}

async function load(name) {
  const module = await import(`./${name}.js`);
  await module.default({ module_or_path: `./${name}_bg.wasm` });
  return module;
}

// The first picture only saves time: whatever fails in it, the app draws as before. The
// module is the one index.html's first script chose (web/first/pick.js); when the literal
// one has no picture, the other may.
let drawn = false;
try {
  const name = window.cuteFirst ?? '@FIRST@';
  const module = load(name);
  const room = standIn();
  const chosen = await module;
  performance.mark('first:loaded');
  drawn = paintFirst(chosen, room);
  if (!drawn && name !== '@FIRST@') drawn = paintFirst(await load('@FIRST@'), room);
} catch (e) {
  console.warn('first picture:', e);
}
if (!drawn) document.getElementById('first')?.remove();
// After the picture: the bytes before it are the first picture's alone.
startApp();
