// End-to-end tests: the release build (dist/, from `trunk build --release`) served under
// /some/prefix/ and driven in Debian's headless Chromium through playwright-core.
// Run: node --test --test-concurrency=1 e2e/   (scripts/test.sh builds dist/ first). Screenshots of the main
// views land in e2e/out/ for a human to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { serveAndLaunch, longScript } from './serve.mjs';
import { openPage, pageUrl, typeExpr } from './pages.mjs';

const DIST = new URL('../dist', import.meta.url).pathname;
const OUT = new URL('./out', import.meta.url).pathname;

let site, browser, base;

before(async () => {
  await mkdir(OUT, { recursive: true });
  site = await serveAndLaunch(DIST);
  ({ browser, base } = site);
});

after(async () => {
  // Always close, even after failures, or Chromium processes linger.
  await site?.close();
});

/** A fresh page that fails the test on any uncaught page error. */
const open = (query = '', viewport = undefined) => openPage(site, query, { viewport });

const cellData = (page, sel) => page.$$eval(sel, (cs) => cs.map((c) => ({ ...c.dataset })));

/** The pointer over cell (row, col) of a panel drawn as fills (more than 128 cells): the
 * panel's hit rectangle takes it, and the page reads the cell from the figure. */
async function pointAt(page, panel, row, col) {
  const p = page.locator(`#panel-${panel}`);
  const [rows, cols] = [Number(await p.getAttribute('data-rows')), Number(await p.getAttribute('data-cols'))];
  const hit = await p.locator('.hit').boundingBox();
  return [hit.x + ((col + 0.5) / cols) * hit.width, hit.y + ((row + 0.5) / rows) * hit.height];
}
async function hoverCell(page, panel, row, col) {
  const [x, y] = await pointAt(page, panel, row, col);
  await page.mouse.move(x, y);
}
async function clickCell(page, panel, row, col) {
  const [x, y] = await pointAt(page, panel, row, col);
  await page.mouse.click(x, y);
}
const inspectorRow = (page, k) => page.locator(`#inspector dd[data-key="${k}"]`).first().textContent();

test('typed expression: right number of cells and offsets, URL follows', async () => {
  const { page, ctx, errors } = await open();
  await typeExpr(page, '(4,8):(8,1)');
  const cells = await cellData(page, '#panel-layout .cell');
  assert.equal(cells.length, 32);
  for (const c of cells) {
    const i = Number(c.idx);
    // Column-major index i = m + 4n of shape (4,8); offset = 8m + n.
    assert.equal(Number(c.offset), 8 * (i % 4) + Math.floor(i / 4), `cell ${i}`);
    assert.equal(Number(c.row), i % 4);
  }
  assert.match(decodeURIComponent(await pageUrl(page)), /[?&]expr=\(4,8\):\(8,1\)/);
  // A script: bindings carry, the last line is drawn, every line is printed.
  await typeExpr(page, 'A = (8,64):(64,1)\nsize(A)\nlogical_divide(A, (4:1,16:1))');
  assert.deepEqual(await page.$$eval('#results li code', (l) => l.map((e) => e.textContent)),
    ['512', '((4,2),(16,4)):((64,256),(1,16))']);
  // Every panel of the drawing together holds at least the 512 cells of A.
  const drawn = await page.$$eval('#canvas svg .panel', (ps) => ps.reduce((n, p) => n + p.dataset.rows * p.dataset.cols, 0));
  assert.ok(drawn >= 512, `${drawn} cells`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('shared URL restores the whole state', async () => {
  const q = '?expr=Sw%3C3,4,3%3E%20o%200%20o%20(8,64):(64,1)&view=swizzle&palette=colorblind&theme=dark&bits=32&zoom=1.5';
  const { page, ctx, errors } = await open(q);
  assert.equal(await page.inputValue('#editor'), 'Sw<3,4,3> o 0 o (8,64):(64,1)');
  assert.equal(await page.inputValue('#view'), 'swizzle');
  assert.equal(await page.inputValue('#palette'), 'colorblind');
  assert.equal(await page.inputValue('#theme'), 'dark');
  assert.equal(await page.inputValue('#bits'), '32');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.equal(await page.getAttribute('#canvas svg', 'data-view'), 'swizzle');
  assert.deepEqual(await page.$eval('#panel-after', (p) => [p.dataset.rows, p.dataset.cols]), ['8', '64']);
  assert.equal(await page.textContent('#zoom-level'), '150%');
  // Sw<3,4,3>: offset 128 (row 2, col 0): yyy = bit 7 → zzz bit 4, 128 ^ 16 = 144.
  await hoverCell(page, 'after', 2, 0);
  assert.match(await inspectorRow(page, 'offset before swizzle'), /^128 = /);
  assert.match(await inspectorRow(page, 'swizzled offset'), /^144 = /);
  // The URL written back is the same state.
  assert.equal(new URL(await pageUrl(page)).search, q);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('hover shows bank and thread; click pins; highlight a thread', async () => {
  // The seeds' 32x64 float tile read by columns: lane t reads row t, 8-way conflicts.
  const expr = 'bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS128)';
  const { page, ctx, errors } = await open(`?expr=${encodeURIComponent(expr)}`);
  assert.equal(await page.getAttribute('#canvas svg', 'data-view'), 'banks');
  // Lane t reads floats 64t..64t+3, banks 0..3: the first row of the first instruction
  // has a lane in bank 2.
  const bankPanel = await page.$eval('#canvas svg .panel', (p) => p.dataset.panel);
  await hoverCell(page, bankPanel, 0, 2);
  const row = (k) => inspectorRow(page, k);
  assert.equal(await row('bank'), '2');
  assert.match(await row('lanes'), /\d/);
  // A swizzled tile: bank = (offset * 2 bytes / 4) mod 32 for 16-bit elements.
  await typeExpr(page, 'Sw<3,4,3> o 0 o (8,64):(64,1)');
  await hoverCell(page, 'after', 1, 1);
  assert.equal(await row('swizzled offset'), '65 = 0b00_0100_0001');
  assert.equal(await row('bank'), String(Math.floor((65 * 2) / 4) % 32));
  assert.equal(await row('coordinate'), '(1,1)');
  await clickCell(page, 'after', 1, 1);
  assert.equal(await page.$eval('#panel-after rect.pin', (r) => r.getAttribute('visibility')), 'visible');
  await hoverCell(page, 'after', 0, 0);
  assert.equal(await row('swizzled offset'), '65 = 0b00_0100_0001', 'pinned cell stays');
  // TV layout: pin a cell, highlight its thread → URL and dimmed cells.
  await typeExpr(page, 'make_layout_tv((4,8):(8,1), (4,1):(1,0))');
  const tv = page.locator('#canvas .cell[data-thread="9"]').first();
  await tv.click();
  assert.equal(await row('thread'), '9');
  await page.click('#highlight-pinned');
  await page.waitForFunction(() => document.querySelectorAll('#canvas .cell.dim').length > 0);
  const lit = await page.$$eval('#canvas .cell:not(.dim)', (cs) => [...new Set(cs.map((c) => c.dataset.thread))]);
  assert.deepEqual(lit, ['9']);
  assert.match(await pageUrl(page), /[?&]hl=t9/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('descriptor view: from a preset and from a shared URL; hover names the field and the core matrix', async () => {
  const { page, ctx, errors } = await open();
  await page.selectOption('#preset', { label: 'Hopper 128x128x64 F16 GEMM: smem A (K-major SW128) and its GMMA descriptor' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'descriptor');
  // The printed descriptor is C++'s print(GmmaDescriptor).
  const printed = await page.$$eval('#results li code', (l) => l.map((e) => e.textContent));
  assert.match(printed[printed.length - 1], /^GmmaDescriptor: 0x4000004000010000\n  start_addr :  0x0000/);
  // Each 32-bit word of the ruler, then a row naming its fields.
  assert.deepEqual(await page.$eval('#panel-bits', (p) => [p.dataset.rows, p.dataset.cols]), ['4', '32']);
  const named = await page.$$eval('#panel-bits .mlabel', (l) => l.map((e) => e.textContent));
  for (const f of ['layout_t', 'base_offset', 'stride_off', 'leading_off', 'start_addr']) {
    assert.ok(named.includes(f), `${f} not on the ruler: ${named}`);
  }
  assert.deepEqual(await page.$eval('#panel-smem', (p) => [p.dataset.rows, p.dataset.cols]), ['64', '16']);
  // The SBO arrow is drawn over the operand.
  assert.match(await page.$eval('#panel-smem .marks', (m) => m.textContent), /SBO 1024 B/);
  const row = (k) => inspectorRow(page, k);
  // Row 0, column 1 of the ruler is bit 62: layout_type = 1 (B128).
  await hoverCell(page, 'bits', 0, 1);
  assert.equal(await row('bit'), '62');
  assert.equal(await row('field'), 'layout_type');
  assert.equal(await row('meaning'), 'B128');
  // Row 2 (the second word), column 15 is bit 16, the lowest bit of LBO.
  await hoverCell(page, 'bits', 2, 15);
  assert.equal(await row('field'), 'leading_off');
  // Row 9 of the operand is in the second core matrix down (the one SBO reaches).
  await hoverCell(page, 'smem', 9, 3);
  assert.equal(await row('core'), '(1, 0)');
  // A shared link to an UMMA instruction descriptor.
  const expr = 'UMMA::make_instr_desc<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>()';
  const q = `?expr=${encodeURIComponent(expr)}&view=descriptor`;
  await page.goto(base + q);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'descriptor');
  assert.equal(await page.inputValue('#view'), 'descriptor');
  assert.deepEqual(await page.$eval('#panel-bits', (p) => [p.dataset.rows, p.dataset.cols]), ['2', '32']);
  // Bits 28..24 are m_dim: column 31 - 27 = 4 is bit 27.
  const bit = page.locator('#panel-bits .cell[data-bit="27"]').first();
  if (await bit.count()) await bit.hover(); else await hoverCell(page, 'bits', 0, 4);
  assert.equal(await row('field'), 'm_dim');
  assert.equal(await row('meaning'), 'M = 128');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('tmem view: accumulator from a preset, a tcgen05.ld atom from a shared URL; hover names lane, thread and register', async () => {
  const { page, ctx, errors } = await open();
  await page.selectOption('#preset', { label: 'UMMA M=64: two MMAs share each sub-partition' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'tmem');
  const printed = await page.$$eval('#results li code', (l) => l.map((e) => e.textContent));
  assert.equal(printed[printed.length - 1], 'tmem_[32b](0x0000.0000) o (((16,4),64),2,1):(((65536,2097152),1),1048576,0)');
  assert.deepEqual(await page.$eval('#panel-tmem', (p) => [p.dataset.rows, p.dataset.cols]), ['128', '64']);
  const row = (k) => inspectorRow(page, k);
  // Zoomed out so that lane 17 is on screen: it holds row 1 of the second MMA (lanes 16-31
  // of sub-partition 0), column 5.
  await page.click('#zoom-out');
  await page.click('#zoom-out');
  await hoverCell(page, 'tmem', 17, 5);
  assert.equal(await row('lane'), '17');
  assert.equal(await row('m'), '1');
  assert.equal(await row('n'), '5');
  assert.equal(await row('mma'), '1');
  assert.equal(await row('warp'), '0');
  const q = `?expr=${encodeURIComponent('atom(SM100_TMEM_LOAD_16dp256b1x)')}&view=tmem`;
  await page.goto(base + q);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'tmem');
  assert.equal(await page.inputValue('#view'), 'tmem');
  // Thread 5 = (1, 1) of the 4x8 thread grid: lanes 1 and 9, columns 2 and 3.
  await hoverCell(page, 'tmem', 9, 3);
  assert.equal(await row('thread'), '5');
  assert.equal(await row('register'), '3');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('tma view: a preset and a shared URL; hover names the box, its row chunk and the smem offset', async () => {
  const { page, ctx, errors } = await open();
  await page.selectOption('#preset', { label: 'TMA 128B swizzle: K-major 64x64 half tile of an (M,K) row-major matrix' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'tma');
  const printed = await page.$$eval('#results li code', (l) => l.map((e) => e.textContent));
  assert.equal(printed[printed.length - 1], '(64,64):(1@1,1@0)');
  assert.deepEqual(await page.$eval('#panel-gmem', (p) => [p.dataset.rows, p.dataset.cols]), ['64', '64']);
  const row = (k) => inspectorRow(page, k);
  // Row 1, column 8 of the tile: box row 1, chunk 1, swizzled to chunk 1 ^ 1 = 0 of smem row 1.
  await hoverCell(page, 'gmem', 1, 8);
  assert.equal(await row('box'), '0');
  assert.equal(await row('chunk'), '1');
  assert.equal(await row('smem offset'), '64');
  const expr = 'make_tma_copy(make_layout(make_shape(4096, 4096), make_stride(_1{}, 4096)), tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_64,_16>{}))';
  await page.goto(base + `?expr=${encodeURIComponent(expr)}&view=tma`);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'tma');
  assert.equal(await page.inputValue('#view'), 'tma');
  // (m, k) = (8, 9): the first box along M (0..31), the second along K (8..15): box 2.
  await hoverCell(page, 'gmem', 8, 9);
  assert.equal(await row('box'), '2');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('export downloads a valid SVG and PNG of the current view', async () => {
  const { page, ctx, errors } = await open('?expr=(4,8):(8,1)');
  const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  // Named by the view drawn, not the menu's "auto".
  assert.equal(svgDl.suggestedFilename(), 'cute-layout.svg');
  const svg = await readFile(await svgDl.path(), 'utf8');
  assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /<\/svg>\s*$/);
  assert.equal((svg.match(/class="cell"/g) ?? []).length, 32);
  // The browser itself must accept it as an image.
  const ok = await page.evaluate(async (text) => {
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    await img.decode();
    return img.naturalWidth > 0;
  }, svg);
  assert.ok(ok);
  // While the PNG is made the button says so and is disabled; then it is back.
  const saw = page.waitForFunction(() => document.querySelector('#export-png').textContent === 'PNG…');
  const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('#export-png'), saw]);
  assert.equal(pngDl.suggestedFilename(), 'cute-layout.png');
  await page.waitForFunction(() => document.querySelector('#export-png').textContent === 'PNG');
  const png = await readFile(await pngDl.path());
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  assert.ok(png.length > 1000);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('bad expression: error with line and column, page stays alive', async () => {
  const { page, ctx, errors } = await open('?expr=(4,8):(8,1)');
  await page.fill('#editor', '(4,8):(8,1');
  await page.waitForSelector('#editor-error');
  assert.match(await page.textContent('#editor-error .where'), /line 1, column \d+/);
  assert.equal(await page.getAttribute('#editor-error', 'data-col') !== '0', true);
  await page.fill('#editor', 'A = (8,8):(8,1)\ncomposition(A, foo)');
  await page.waitForFunction(() => document.querySelector('#editor-error')?.dataset.line === '2');
  assert.match(await page.textContent('#editor-error .where'), /line 2, column 16/);
  assert.ok(await page.isVisible('#draw-error'));
  await typeExpr(page, '(2,2):(1,2)');
  assert.equal(await page.locator('#panel-layout .cell').count(), 4);
  assert.equal(await page.isVisible('#editor-error'), false);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('XSS corpus in every URL parameter runs nothing', async () => {
  const payloads = [
    '<script>window.__pwned=1</script>',
    '"><img src=x onerror="window.__pwned=1">',
    "'><svg/onload=window.__pwned=1>",
    'javascript:window.__pwned=1',
    '(2,2):(1,2) # <img src=x onerror="window.__pwned=1">',
    '</title><script>window.__pwned=1</script>',
  ];
  const params = ['expr', 'view', 'palette', 'theme', 'bits', 'bit', 'hl', 'warp', 'mode',
    'zoom', 'pin', 'f.kind', 'f.shape', 'f.stride', 'f.B', 'f.elem', 'f.thr', 'f.val', 'f.instr', 'bogus'];
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const fired = [];
  page.on('dialog', (d) => { fired.push(d.message()); d.dismiss(); });
  page.on('pageerror', (e) => fired.push(e.message));
  for (const p of params) {
    for (const x of payloads) {
      const q = `?${encodeURIComponent(p)}=${encodeURIComponent(x)}${p.startsWith('f.') ? '&mode=form' : ''}`;
      await page.goto(base + q);
      await page.waitForSelector('#canvas svg, #draw-error');
      const st = await page.evaluate(() => ({
        pwned: window.__pwned,
        scripts: document.body.querySelectorAll('script').length,
        imgs: document.querySelectorAll('img').length,
        handlers: [...document.querySelectorAll('*')].filter((e) =>
          [...e.attributes].some((a) => a.name.startsWith('on'))).length,
      }));
      assert.deepEqual(st, { pwned: undefined, scripts: 0, imgs: 0, handlers: 0 }, q);
    }
  }
  assert.deepEqual(fired, []);
  await ctx.close();
});

test('form mode writes the expression; views, big layouts, zoom, narrow screens', async () => {
  const { page, ctx, errors } = await open();
  await page.click('#mode-form');
  await page.selectOption('#f-kind', 'banks');
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'banks');
  assert.match(await page.textContent('#form-expr'), /^bank_conflicts\(Sw<3,3,3> o 0 o \(32,64\):\(64,1\), 16, /);
  await page.selectOption('#f-kind', 'layout');
  await page.fill('#f-shape', '(16,64)');
  await page.locator('#f-B').fill('2');
  await page.waitForFunction(() => document.querySelector('#form-expr')?.textContent === 'Sw<2,3,3> o 0 o (16,64):(64,1)');
  await page.waitForFunction(() => {
    const p = document.querySelector('#panel-after');
    return p?.dataset.rows === '16' && p?.dataset.cols === '64';
  });
  assert.equal(await page.getAttribute('#canvas svg', 'data-view'), 'swizzle');
  assert.match(decodeURIComponent(await pageUrl(page)), /mode=form.*f\.shape=\(16,64\)/);
  // A big layout: the same view, labels painted only where they are on screen.
  await page.click('#mode-editor');
  await typeExpr(page, '(256,256):(256,1)');
  // The form suggested the swizzle view; the view follows the value to the layout view.
  assert.equal(await page.getAttribute('#canvas svg', 'data-view'), 'layout');
  assert.equal(await page.$('#view-note'), null);
  assert.doesNotMatch(decodeURIComponent(await pageUrl(page)), /view=swizzle/);
  // Cells are paths; hovering the grid still inspects the cell under the pointer.
  assert.equal(await page.locator('#canvas .cell').count(), 0);
  const hit = await page.locator('#panel-layout .hit').boundingBox();
  await page.mouse.move(hit.x + (5.5 / 256) * hit.width, hit.y + (3.5 / 256) * hit.height);
  const row = (k) => page.locator(`#inspector dd[data-key="${k}"]`).first().textContent();
  assert.equal(await row('flat (row, col)'), '(3, 5)');
  assert.match(await row('offset'), new RegExp(`^${3 * 256 + 5} = `));
  // Zoom changes the drawn size, not the drawing.
  const w0 = await page.$eval('#canvas svg', (s) => s.getBoundingClientRect().width);
  await page.click('#zoom-in');
  const w1 = await page.$eval('#canvas svg', (s) => s.getBoundingClientRect().width);
  assert.ok(Math.abs(w1 / w0 - 1.25) < 0.01, `${w0} → ${w1}`);
  assert.deepEqual(errors, []);
  await ctx.close();
  // 360 px wide: nothing but the canvas scrolls sideways.
  const small = await open('?expr=(8,32):(32,1)', { width: 360, height: 740 });
  const overflow = await small.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page is ${overflow}px wide`);
  await small.page.screenshot({ path: `${OUT}/narrow-360.png` });
  await small.ctx.close();
});

test('big figures: labels where legible and in view, inspector and export whole', async () => {
  const { page, ctx, errors } = await open('?expr=(256,256):(256,1)', { width: 1400, height: 900 });
  // Labels are painted on a canvas over the drawing: it says how many and which cells.
  const painted = () => page.$eval('#label-layer', (c) => ({
    n: Number(c.dataset.labels), ranges: c.dataset.ranges ?? '',
  }));
  // Whether any label pixel is painted over the cell (row, col) of the layout panel.
  const inked = (row, col) => page.evaluate(([row, col]) => {
    const layer = document.querySelector('#label-layer');
    const hit = document.querySelector('#panel-layout .hit').getBoundingClientRect();
    const lr = layer.getBoundingClientRect();
    const k = layer.width / lr.width;
    const [cw, ch] = [hit.width / 256, hit.height / 256];
    const x = (hit.left - lr.left + col * cw) * k, y = (hit.top - lr.top + row * ch) * k;
    const px = layer.getContext('2d').getImageData(Math.round(x), Math.round(y), Math.round(cw * k), Math.round(ch * k)).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) return true;
    return false;
  }, [row, col]);
  let p = await painted();
  // The top-left cells are on screen at 100%; far fewer than all 65,536 are painted.
  assert.match(p.ranges, /^layout:0-\d+,0-\d+$/);
  assert.ok(p.n > 100 && p.n < 5000, `${p.n} labels`);
  assert.ok(await inked(3, 5), 'label of cell (3, 5)');
  // Zoomed out until cells are too small to read: no labels; back in: labels again.
  for (let i = 0; i < 4; i++) await page.click('#zoom-out');
  await page.waitForFunction(() => document.querySelector('#label-layer').dataset.labels === '0');
  assert.ok(!(await inked(3, 5)));
  await page.click('#zoom-reset');
  await page.waitForFunction(() => Number(document.querySelector('#label-layer').dataset.labels) > 100);
  // Scrolled to the far corner: its labels are painted.
  await page.$eval('#canvas', (c) => { c.scrollLeft = c.scrollWidth; c.scrollTop = c.scrollHeight; });
  await page.waitForFunction(() => / layout:\d+-256,\d+-256$|^layout:\d+-256,\d+-256$/.test(document.querySelector('#label-layer').dataset.ranges));
  assert.ok(await inked(255, 255), 'label of cell (255, 255)');
  // The inspector reads the cell under the pointer anywhere in the grid.
  const hit = await page.locator('#panel-layout .hit').boundingBox();
  const vp = await page.locator('#canvas').boundingBox();
  const cx = vp.x + vp.width - 60, cy = vp.y + vp.height - 60;
  const col = Math.floor(((cx - hit.x) / hit.width) * 256), rw = Math.floor(((cy - hit.y) / hit.height) * 256);
  await page.mouse.move(cx, cy);
  const row = (k) => page.locator(`#inspector dd[data-key="${k}"]`).first().textContent();
  assert.equal(await row('flat (row, col)'), `(${rw}, ${col})`);
  assert.match(await row('offset'), new RegExp(`^${rw * 256 + col} = `));
  // Hovered and pinned cells are outlined, at the cell's place in the SVG.
  await page.mouse.click(cx, cy);
  const outline = await page.$eval('#panel-layout', (p) => {
    const h = p.querySelector('.hit'), pin = p.querySelector('rect.pin');
    const n = (e, k) => Number(e.getAttribute(k));
    return { vis: pin.getAttribute('visibility'), col: (n(pin, 'x') - n(h, 'x')) / n(pin, 'width'),
      row: (n(pin, 'y') - n(h, 'y')) / n(pin, 'height') };
  });
  assert.deepEqual(outline, { vis: 'visible', col, row: rw });
  // Export is the whole picture: every cell with its label.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const svg = await readFile(await dl.path(), 'utf8');
  assert.equal((svg.match(/class="cell"/g) ?? []).length, 65536);
  for (const v of [0, 777, 65535]) assert.ok(svg.includes(`>${v}</text>`), `label ${v}`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('1024x1024: fills under the drawing, labels and inspector from cells computed on demand', async () => {
  const { page, ctx, errors } = await open('?expr=(1024,1024):(1,1024)', { width: 1400, height: 900 });
  await page.waitForFunction(() => Number(document.querySelector('#label-layer').dataset.labels) > 100);
  // The colour on screen at cell (row, col): the fills layer's pixel at the cell's centre.
  const fill = (row, col) => page.evaluate(([row, col]) => {
    const layer = document.querySelector('#fills-layer');
    const hit = document.querySelector('#panel-layout .hit').getBoundingClientRect();
    const lr = layer.getBoundingClientRect();
    const k = layer.width / lr.width;
    const x = (hit.left - lr.left + ((col + 0.5) / 1024) * hit.width) * k;
    const y = (hit.top - lr.top + ((row + 0.5) / 1024) * hit.height) * k;
    return [...layer.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data];
  }, [row, col]);
  // CuTe's grey ramp by offset mod 8; offset(r, c) = r + 1024 c.
  const grey = (o) => [0xff, 0x99, 0xcc, 0x66, 0xe6, 0x80, 0xb3, 0x4d][o % 8];
  for (const [r, c] of [[0, 0], [3, 1], [5, 2]]) {
    const g = grey(r + 1024 * c);
    assert.deepEqual(await fill(r, c), [g, g, g, 255], `fill of (${r}, ${c})`);
  }
  // Far away: scroll to the last cells, their fills and labels follow.
  await page.$eval('#canvas', (c) => { c.scrollLeft = c.scrollWidth; c.scrollTop = c.scrollHeight; });
  await page.waitForFunction(() => /^layout:\d+-1024,\d+-1024$/.test(document.querySelector('#label-layer').dataset.ranges));
  const g = grey(1023 + 1024 * 1023);
  assert.deepEqual(await fill(1023, 1023), [g, g, g, 255]);
  // The inspector reads the cell under the pointer.
  const hit = await page.locator('#panel-layout .hit').boundingBox();
  const vp = await page.locator('#canvas').boundingBox();
  // A point inside both the viewport and the grid (the legend is below the grid).
  const cx = Math.min(vp.x + vp.width, hit.x + hit.width) - 70;
  const cy = Math.min(vp.y + vp.height, hit.y + hit.height) - 40;
  const col = Math.floor(((cx - hit.x) / hit.width) * 1024), rw = Math.floor(((cy - hit.y) / hit.height) * 1024);
  assert.ok(rw > 1000 && col > 1000, `(${rw}, ${col})`);
  await page.mouse.move(cx, cy);
  assert.equal(await inspectorRow(page, 'flat (row, col)'), `(${rw}, ${col})`);
  assert.match(await inspectorRow(page, 'offset'), new RegExp(`^${rw + 1024 * col} = `));
  // Zoomed out, the whole grid is fills without labels; export says why it is off.
  await page.click('#zoom-fit');
  await page.waitForFunction(() => document.querySelector('#label-layer').dataset.labels === '0');
  await page.$eval('#canvas', (c) => { c.scrollLeft = 0; c.scrollTop = 0; });
  await page.waitForFunction(() => /^layout:0-/.test(document.querySelector('#fills-layer').dataset.ranges));
  assert.equal((await fill(40, 40))[3], 255, 'fills when zoomed out');
  assert.equal(await page.locator('#export-svg').isDisabled(), true);
  assert.match(await page.locator('#export-svg').getAttribute('title'), /1048576 cells are too many for a file/);
  // Back to a small layout: export is on again and the fills layer is empty.
  await typeExpr(page, '(8,8):(8,1)');
  assert.equal(await page.locator('#export-svg').isDisabled(), false);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('touch on a phone-sized screen: one finger pans the drawing, two pinch-zoom it', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '?expr=(64,64):(64,1)');
  await page.waitForSelector('#canvas svg');
  const cdp = await ctx.newCDPSession(page);
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  await page.locator('#canvas').scrollIntoViewIfNeeded();
  const box = await page.locator('#canvas').boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + Math.min(box.height, 844 - box.y) / 2];
  assert.ok(box.y >= 0 && box.y < 700, `the drawing on screen: ${JSON.stringify(box)}`);
  // One finger, dragged up and left: the drawing scrolls.
  await touch('touchStart', [[cx + 80, cy + 80]]);
  for (let k = 1; k <= 8; k++) await touch('touchMove', [[cx + 80 - 15 * k, cy + 80 - 15 * k]]);
  await touch('touchEnd', []);
  await page.waitForFunction(() => document.querySelector('#canvas').scrollTop > 40 && document.querySelector('#canvas').scrollLeft > 40);
  // Two fingers spread to twice their distance: the zoom doubles (100% → 200%). The 64x64
  // layout opened at the legible 82%, part of it in view.
  assert.equal(await page.textContent('#zoom-level'), '82%');
  await page.click('#zoom-reset');
  await page.waitForFunction(() => document.querySelector('#zoom-level').textContent === '100%');
  await touch('touchStart', [[cx - 40, cy], [cx + 40, cy]]);
  for (let k = 1; k <= 8; k++) await touch('touchMove', [[cx - 40 - 5 * k, cy], [cx + 40 + 5 * k, cy]]);
  await touch('touchEnd', []);
  await page.waitForFunction(() => document.querySelector('#zoom-level').textContent === '200%');
  // ... and pinched back in to half.
  await touch('touchStart', [[cx - 80, cy], [cx + 80, cy]]);
  for (let k = 1; k <= 8; k++) await touch('touchMove', [[cx - 80 + 5 * k, cy], [cx + 80 - 5 * k, cy]]);
  await touch('touchEnd', []);
  await page.waitForFunction(() => document.querySelector('#zoom-level').textContent === '100%');
  assert.deepEqual(errors, []);
  await ctx.close();
});

/** axe-core's WCAG 2.1 A/AA audit of the page as it is; the serious and critical findings. */
async function audit(page) {
  await page.addScriptTag({ path: new URL('../node_modules/axe-core/axe.min.js', import.meta.url).pathname });
  const r = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('accessibility: axe finds nothing serious in the main views; every control is reached by Tab and named', async () => {
  const views = {
    default: '',
    layout: '?expr=(16,16):(16,1)&view=layout',
    big: '?expr=(64,64):(64,1)',
    tv: '?expr=make_layout_tv((4,8):(8,1),%20(4,1):(1,0))&hl=t3',
    banks: `?expr=${encodeURIComponent('bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS128)')}`,
    search: `?expr=${encodeURIComponent('swizzle_search((32,64):(64,1), 16, make_layout_tv((32,1):(1,0), (1,8):(0,1)), LDS128)')}`,
    form: '?mode=form',
    dark: '?expr=(8,32):(32,1)&theme=dark&palette=colorblind',
    error: '?expr=(4,8):(8,',
  };
  for (const [name, q] of Object.entries(views)) {
    const { page, ctx, errors } = await open(q);
    assert.deepEqual(await audit(page), [], name);
    assert.deepEqual(errors, [], name);
    await ctx.close();
  }
  // Keyboard: Tab from the top visits every visible, enabled control, each with a name.
  const { page, ctx } = await open('?expr=(8,8):(8,1)');
  const controls = await page.$$eval('button, select, input, textarea, a[href], [tabindex]', (els) => els
    .filter((e) => !e.disabled && e.getClientRects().length > 0 && e.tabIndex >= 0)
    .map((e) => e.id || e.outerHTML.slice(0, 60)));
  const reached = new Set();
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  for (let i = 0; i < controls.length + 10; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const name = e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent || e.title;
      return { id: e.id || e.outerHTML.slice(0, 60), named: Boolean(name && name.trim()) };
    });
    if (f) {
      assert.ok(f.named, `focused control without a name: ${f.id}`);
      reached.add(f.id);
    }
  }
  assert.deepEqual(controls.filter((c) => !reached.has(c)), [], 'controls Tab never reaches');
  await ctx.close();
});

test('screenshots of the main views (for a human to look at)', async () => {
  const views = {
    swizzle: '?expr=Sw%3C3,4,3%3E%20o%200%20o%20(8,64):(64,1)&view=swizzle',
    tv: '?expr=make_layout_tv((4,8):(8,1),%20(4,1):(1,0))',
    mma: '?expr=atom(SM80_16x8x16_F16F16F16F16_TN)',
    copy: '?expr=atom(SM75_U32x4_LDSM_N,%20half_t)',
    banks: `?expr=${encodeURIComponent('bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS128)')}`,
    search: `?expr=${encodeURIComponent('swizzle_search((32,64):(64,1), 16, make_layout_tv((32,1):(1,0), (1,8):(0,1)), LDS128)')}`,
    algebra: '?expr=composition((6,2):(8,2),%20(4,3):(3,1))',
    tma: `?expr=${encodeURIComponent('make_tma_copy(make_layout(make_shape(256, 512), make_stride(512, _1{})), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_16,_64>{}))')}`,
    tmem: `?expr=${encodeURIComponent('atom(SM100_TMEM_LOAD_16dp256b1x)')}`,
    descriptor: `?expr=${encodeURIComponent('make_gmma_desc<GMMA::Major::MN>(composition(tile_to_shape(GMMA::Layout_MN_SW32_Atom<half_t>{}, Shape<_32,_32>{}), make_tile(_32{}, _16{})))')}`,
    dark: '?expr=(8,32):(32,1)&theme=dark&palette=colorblind',
  };
  for (const [name, q] of Object.entries(views)) {
    const { page, ctx, errors } = await open(q);
    await page.screenshot({ path: `${OUT}/${name}.png` });
    assert.deepEqual(errors, [], name);
    await ctx.close();
  }
});

test('banks: the element width is the value\'s (float, 8-bit, half atoms); each panel reports its own offset and bank', async () => {
  const { page, ctx, errors } = await open();
  // First load: 8x32 half under Sw<3,2,3>. Cell (1,0) is offset 32 before the swizzle
  // (bank 16, the colour it has) and 36 after (bank 18).
  await hoverCell(page, 'before', 1, 0);
  assert.match(await inspectorRow(page, 'offset'), /^32 = /);
  assert.equal(await inspectorRow(page, 'bank'), '16');
  await hoverCell(page, 'after', 1, 0);
  assert.match(await inspectorRow(page, 'swizzled offset'), /^36 = /);
  assert.equal(await inspectorRow(page, 'bank'), '18');
  assert.ok(await page.isVisible('#bits'), 'nothing fixes the width: the menu chooses it');

  // A float atom prints smem_ptr[32b]: 32-bit banks whatever the menu says.
  await typeExpr(page, 'GMMA::Layout_K_SW128_Atom<float>{}');
  await hoverCell(page, 'before', 0, 1);
  assert.equal(await inspectorRow(page, 'bank'), '1');
  assert.match(await inspectorRow(page, 'word'), /^1 \(bytes 4\.\.7\)/);
  assert.match(await page.textContent('#bits-fixed'), /32-bit \(smem_ptr\[32b\]\)/);
  assert.match(await page.textContent('#canvas svg'), /for 32-bit elements \(from smem_ptr\[32b\]/);
  // The bit line names the swizzle as drawn (in elements): Sw<3,2,3> for floats.
  await hoverCell(page, 'after', 1, 0);
  assert.match(await inspectorRow(page, 'swizzle bits'), /Sw<3,2,3>/);

  // 8-bit elements: four to a bank.
  await typeExpr(page, 'GMMA::Layout_K_SW128_Atom<uint8_t>{}');
  await hoverCell(page, 'before', 0, 3);
  assert.equal(await inspectorRow(page, 'bank'), '0');
  await hoverCell(page, 'before', 0, 4);
  assert.equal(await inspectorRow(page, 'bank'), '1');
  assert.match(await page.textContent('#bits-fixed'), /8-bit/);

  // half_t: Sw<3,4,3> in bytes is Sw<3,3,3> in elements, and the inspector says so.
  await typeExpr(page, 'GMMA::Layout_K_SW128_Atom<half_t>{}');
  await hoverCell(page, 'after', 1, 0);
  assert.match(await inspectorRow(page, 'swizzle bits'), /Sw<3,3,3>/);

  // A declared element type sets the width of a swizzle written in elements.
  await typeExpr(page, 'using Element = float;\nSw<3,2,3> o 0 o (8,32):(32,1)');
  assert.match(await page.textContent('#bits-fixed'), /using Element = float/);
  await hoverCell(page, 'before', 1, 0);
  assert.equal(await inspectorRow(page, 'bank'), '0');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Form and Expression edit one state: a pasted block survives the tabs, Back and Ctrl+Z undo a form edit', async () => {
  const { page, ctx, errors } = await open();
  const block = 'A = (8,64):(64,1)\nlogical_divide(A, (4:1,16:1))';
  await typeExpr(page, block);
  await page.click('#mode-form');
  assert.ok(await page.isVisible('#form-note'), 'the form says it has not taken over');
  await page.click('#mode-editor');
  assert.equal(await page.inputValue('#editor'), block, 'switching tabs lost the block');

  // Editing a field replaces the expression; Back returns to the block.
  await page.click('#mode-form');
  await page.fill('#f-shape', '(4,8)');
  await page.waitForFunction(() => !document.querySelector('#form-note'));
  const formExpr = await page.textContent('#form-expr');
  assert.notEqual(formExpr.trim(), block);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#form-note'));
  await page.goBack();
  await page.waitForSelector('#editor');
  assert.equal(await page.inputValue('#editor'), block);
  // Forward again: the form's expression.
  await page.goForward();
  await page.goForward();
  await page.waitForFunction((e) => document.querySelector('#form-expr')?.textContent === e, formExpr);
  // Undo in the editor: its own typing first, then the text the form replaced.
  await page.click('#mode-editor');
  assert.equal(await page.inputValue('#editor'), formExpr);
  await page.focus('#editor');
  await page.keyboard.press('End');
  await page.keyboard.type(' ');
  await page.keyboard.press('Control+z');
  await page.waitForFunction((e) => document.querySelector('#editor').value === e, formExpr);
  await page.keyboard.press('Control+z');
  await page.waitForFunction((b) => document.querySelector('#editor').value === b, block);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('after an error the stage says the picture is the last good value', async () => {
  const { page, ctx, errors } = await open();
  await typeExpr(page, '(4,8):(8,1)');
  await page.fill('#editor', 'logical_divide((4,8):(8,1), ');
  await page.waitForSelector('#draw-error');
  const msg = await page.textContent('#draw-error');
  assert.match(msg, /Not drawn: the picture below is the last good value, \(4,8\):\(8,1\)/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the view follows the value after a preset; a chosen view stays and says why not', async () => {
  const { page, ctx, errors } = await open();
  await page.selectOption('#preset', { label: 'Hopper 128x128x64 F16 GEMM: smem A (K-major SW128) and its GMMA descriptor' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'descriptor');
  await typeExpr(page, 'Sw<3,4,3> o 0 o (8,64):(64,1)');
  // The preset's view was a suggestion: menu, URL and export name follow the swizzle.
  assert.equal(await page.getAttribute('#canvas svg', 'data-view'), 'swizzle');
  assert.equal(await page.inputValue('#view'), 'auto');
  assert.doesNotMatch(decodeURIComponent(await pageUrl(page)), /view=/);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  assert.equal(dl.suggestedFilename(), 'cute-swizzle.svg');
  // A view the user chose stays chosen; the stage says it could not draw this value.
  await page.selectOption('#view', 'tv');
  await page.waitForSelector('#view-note');
  assert.match(await page.textContent('#view-note'), /drawn in the swizzle view/);
  assert.equal(await page.inputValue('#view'), 'tv');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('new figures open fitted and scrolled to their corner', async () => {
  const { page, ctx, errors } = await open('', { width: 1400, height: 900 });
  // The part of a panel's width on screen.
  const shown = (sel) => page.evaluate((sel) => {
    const c = document.querySelector('#canvas').getBoundingClientRect();
    const p = document.querySelector(sel).getBoundingClientRect();
    if (p.bottom > c.bottom + 1) return 0;
    return (Math.min(p.right, c.right) - Math.max(p.left, c.left)) / p.width;
  }, sel);
  // The first load's 8x32 swizzle is wider than the stage at a legible zoom: it opens at
  // 82% (11px labels at 9px) and the zoom bar says only part is in view; fit shows it all.
  await page.waitForFunction(() => Number(document.querySelector('#label-layer').dataset.labels) > 0);
  assert.equal(await page.textContent('#zoom-level'), '82%');
  assert.match(await page.textContent('#zoom-part'), /^part in view: fit \(\d+%\) shows it whole$/);
  await page.click('#zoom-fit');
  await page.waitForFunction(() => !document.querySelector('#zoom-part'));
  for (const p of ['#panel-before', '#panel-after']) {
    assert.ok(await shown(p) > 0.99, `${p}: ${await shown(p)} on screen`);
  }
  // Fit is both ways: the whole drawing is inside the stage.
  assert.ok(await page.evaluate(() => {
    const c = document.querySelector('#canvas'), s = c.querySelector('svg');
    return s.getBoundingClientRect().width <= c.clientWidth && s.getBoundingClientRect().height <= c.clientHeight;
  }), 'fit shows the whole drawing');
  // A small layout opens whole at 100%; fit grows it to the stage.
  await typeExpr(page, '(4,8):(8,1)');
  assert.equal(await page.textContent('#zoom-level'), '100%');
  assert.equal(await page.locator('#zoom-part').count(), 0);
  // Scrolled away, then a preset: it opens at its corner.
  await typeExpr(page, '(256,256):(256,1)');
  await page.$eval('#canvas', (c) => { c.scrollLeft = 500; c.scrollTop = 500; });
  await page.selectOption('#preset', { label: 'SM80_16x8x16_F16F16F16F16_TN' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'mma');
  assert.deepEqual(await page.$eval('#canvas', (c) => [c.scrollLeft, c.scrollTop]), [0, 0]);
  // The MMA is taller than the stage: it opens at its width (100%) to scroll down, says
  // that part of it is in view, and fit shows A, B and C all on screen.
  assert.equal(await page.textContent('#zoom-level'), '100%');
  assert.equal(await page.locator('#zoom-part').count(), 1);
  await page.click('#zoom-fit');
  await page.waitForFunction(() => !document.querySelector('#zoom-part'));
  for (const id of await page.$$eval('#canvas svg .panel', (ps) => ps.map((p) => p.id))) {
    const on = await page.evaluate((sel) => {
      const c = document.querySelector('#canvas').getBoundingClientRect();
      const p = document.querySelector(sel).getBoundingClientRect();
      return p.left >= c.left - 1 && p.right <= c.right + 1 && p.bottom <= c.bottom + 1;
    }, '#' + id);
    assert.ok(on, `${id} of the MMA off-screen`);
  }
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('history never traps: a preset, typing, Back and Forward walk the entries both ways and push none', async () => {
  const { page, ctx, errors } = await open();
  const state = () => page.evaluate(() => ({
    expr: document.querySelector('#editor').value,
    view: document.querySelector('#view').value,
    drawn: document.querySelector('#canvas svg')?.dataset.view,
  }));
  const entries = () => page.evaluate(() => history.length);
  const preset = 'Sw<3,4,3> o 0 o (8,64):(64,1)';
  await page.selectOption('#preset', { label: '128B: Sw<3,4,3> o (8,64):(64,1)' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'swizzle');
  await pageUrl(page);
  const atPreset = await state();
  assert.equal(atPreset.expr, preset);
  // Typing a new last line, key by key: the swizzle view gives way to the layout's.
  await page.focus('#editor');
  await page.keyboard.press('End');
  await page.keyboard.type('\n(8,8):(8,1)', { delay: 30 });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'layout');
  await pageUrl(page);
  const typed = await state();
  assert.equal(typed.expr, preset + '\n(8,8):(8,1)');
  assert.equal(typed.view, 'auto');
  const n = await entries();
  // Back: the preset's entry exactly, view included, and no entry pushed (Forward kept).
  await page.goBack();
  await page.waitForFunction((e) => document.querySelector('#editor').value === e, preset);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'swizzle');
  await pageUrl(page);
  assert.deepEqual(await state(), atPreset);
  assert.equal(await entries(), n, 'Back pushed an entry');
  // Forward: the typed text again; Back again: the preset again (not a loop on one entry).
  await page.goForward();
  await page.waitForFunction((e) => document.querySelector('#editor').value === e, typed.expr);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'layout');
  await pageUrl(page);
  assert.deepEqual(await state(), typed);
  assert.equal(await entries(), n);
  await page.goBack();
  await page.waitForFunction((e) => document.querySelector('#editor').value === e, preset);
  await pageUrl(page);
  assert.deepEqual(await state(), atPreset);
  assert.equal(await entries(), n);
  // A preset picked moments after typing is its own entry: Back returns to the typing.
  await page.goForward();
  await page.waitForFunction((e) => document.querySelector('#editor').value === e, typed.expr);
  await page.fill('#editor', '(4,4):(4,1)');
  await page.selectOption('#preset', { label: '128B MN-major: Sw<3,4,3> o (64,8):(1,64)' });
  await page.waitForFunction(() => document.querySelector('#editor').value === 'Sw<3,4,3> o 0 o (64,8):(1,64)');
  await pageUrl(page);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#editor').value === '(4,4):(4,1)');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('an unknown name says what it could mean, the names list finds it, and dimmed labels stay readable', async () => {
  const { page, ctx, errors } = await open();
  await page.fill('#editor', 'make_tiled_copy(Copy_Atom<LDSM_X4_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})');
  await page.waitForSelector('#editor-error');
  assert.match(await page.textContent('#editor-error'), /unknown name 'LDSM_X4_N' \(did you mean SM75_U32x4_LDSM_N/);
  await page.click('#known summary');
  await page.fill('#known-search', 'ldsm x4');
  await page.waitForFunction(() => [...document.querySelectorAll('#known-list code')].some((c) => c.textContent === 'SM75_U32x4_LDSM_N'));
  assert.match(await page.textContent('#known-count'), /found|shown/);
  await page.fill('#known-search', 'logical_divide');
  await page.waitForFunction(() => document.querySelector('#known-list code')?.textContent.startsWith('logical_divide('));
  // The colour-blind palette with a thread highlighted: a dimmed cell's text is the page's
  // text colour at full strength, only its fill is faint.
  await page.goto(base + '?expr=make_layout_tv((4,8):(8,1),%20(4,1):(1,0))&hl=t3&palette=colorblind');
  await page.waitForSelector('#canvas svg .cell.dim');
  const dim = await page.$eval('#canvas svg .cell.dim', (g) => ({
    text: getComputedStyle(g.querySelector('text')).opacity, rect: getComputedStyle(g.querySelector('rect')).opacity,
    fill: getComputedStyle(g.querySelector('text')).fill,
  }));
  assert.deepEqual([dim.text, dim.rect], ['1', '0.22']);
  assert.equal(dim.fill, 'rgb(28, 28, 28)');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a 2,000-line script pastes whole and a keystroke at its end redraws its last line', async () => {
  const { page, ctx, errors } = await open();
  const script = longScript(2000);
  await typeExpr(page, script, { timeout: 90000 });
  // Every output line printed: one per coalesce line.
  assert.equal(await page.locator('#results li').count(), 500);
  await page.focus('#editor');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\ncoalesce(L1996)');
  await page.waitForFunction(() => document.querySelector('#canvas svg title')?.textContent.trim() === 'coalesce(L1996)');
  assert.equal((await page.textContent('#results li:last-child code')).trim(), '(3,9):(9,1)');
  // The drawing's call operands are the bindings before its line: the algebra of the last
  // divide draws L1996 beside it.
  await page.keyboard.type('\nlogical_divide(L1996, make_tile(2:1, 4:1))');
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'algebra');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the shared link of every preset opens cold in its own view, drawn as when it was chosen', async () => {
  const { page, ctx, errors } = await open();
  const values = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter((v) => v !== ''));
  assert.ok(values.length >= 50, `${values.length} presets`);
  const links = [];
  for (const v of values) {
    await page.selectOption('#preset', v);
    await page.waitForFunction(() => {
      const el = document.querySelector('#canvas [data-view]');
      return el && !document.querySelector('#canvas.stale');
    });
    const url = await pageUrl(page);
    const drawn = await page.$eval('#canvas [data-view]', (e) => [e.dataset.view, e.querySelector('title')?.textContent ?? e.id]);
    links.push({ url, drawn, label: await page.$eval(`#preset option[value="${v}"]`, (o) => o.textContent) });
  }
  await ctx.close();
  // Each link in a fresh context: no state but the URL's.
  for (const { url, drawn, label } of links) {
    const c = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const p = await c.newPage();
    p.on('pageerror', (e) => errors.push(`${label}: ${e.message}`));
    await p.goto(url);
    await p.waitForSelector('#canvas [data-view]', { timeout: 15000 });
    const cold = await p.$eval('#canvas [data-view]', (e) => [e.dataset.view, e.querySelector('title')?.textContent ?? e.id]);
    assert.deepEqual(cold, drawn, `${label}: ${url}`);
    assert.equal(await p.locator('#draw-error').count(), 0, `${label}: an error from a cold start`);
    await c.close();
  }
  assert.deepEqual(errors, []);
});

test('answers up front: the TMA box and swizzle mode, the descriptor form, wrapped result lines', async () => {
  const { page, ctx, errors } = await open();
  const answers = () => page.$$eval('#answers li', (l) => l.map((e) => e.textContent).join('\n'));
  await page.selectOption('#preset', { label: 'TMA 128B swizzle: K-major 64x64 half tile of an (M,K) row-major matrix' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'tma');
  assert.match(await answers(), /box \{64, 64\} \(4096 elements, 8192 B\) x 1 per tile, CU_TENSOR_MAP_SWIZZLE_128B/);
  await page.selectOption('#preset', { label: 'Hopper 128x128x64 F16 GEMM: smem A (K-major SW128) and its GMMA descriptor' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'descriptor');
  assert.match(await answers(), /canonical form: /);
  // A long result line wraps inside the pane instead of running off it.
  await page.selectOption('#preset', { label: '32x64 floats: column reads, 8-way conflicts' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'banks');
  assert.match(await page.textContent('#results'), /8-way worst/);
  assert.ok(await page.$eval('#results', (r) => r.scrollWidth <= r.clientWidth + 1), 'a result line runs off the pane');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a search row is named as a kernel writes it and opens its bank check', async () => {
  const { page, ctx, errors } = await open();
  await page.selectOption('#preset', { label: 'Which swizzle fixes the column reads?' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'search');
  await hoverCell(page, 'ranking', 0, 0);
  assert.equal(await inspectorRow(page, 'candidate'), 'Sw<3,3,3>');
  assert.equal(await inspectorRow(page, 'in a kernel'), 'Swizzle<3,4,3> on bytes = SW128');
  // Row #3 (Sw<2,3,3>, 8 wavefronts) opens its bank view; Back returns to the ranking.
  await clickCell(page, 'ranking', 2, 0);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'banks');
  assert.match(await page.inputValue('#editor'), /^bank_conflicts\(Sw<2,3,3> o 0 o \(32,64\):\(64,1\), 16, /);
  assert.match(await page.textContent('#results'), /8 wavefronts, ideal 4/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'search');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a scripted tour as a new user takes it (screenshots in e2e/out/tour-*.png)', async () => {
  const { page, ctx, errors } = await open('', { width: 1600, height: 1000 });
  const shot = (name) => page.screenshot({ path: `${OUT}/tour-${name}.png` });
  await shot('01-first-load');
  // The paste: a Hopper mainloop's staged shared memory, as the kernel writes it.
  const paste = [
    '// a mainloop\'s shared memory, as the kernel writes it',
    'using Element = cutlass::half_t;',
    'constexpr int kStages = 3;',
    'using SmemLayoutAtomA = GMMA::Layout_K_SW128_Atom<Element>;',
    'using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{},',
    '    make_shape(Int<128>{}, Int<64>{}, Int<kStages>{})));',
  ].join('\n');
  await page.fill('#editor', paste);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'swizzle');
  assert.match(await page.textContent('#bits-fixed'), /16-bit \(smem_ptr\[16b\]\)/);
  await shot('02-paste-staged-smem');
  // One before/after pair per stage, labelled as C++ slices it; fit shows them all.
  assert.deepEqual(await page.$$eval('#canvas svg .panel', (ps) => ps.map((p) => p.dataset.panel)),
    ['before-0', 'after-0', 'before-1', 'after-1', 'before-2', 'after-2', 'bits']);
  assert.equal((await page.textContent('#panel-after-2 .plabel')).trim(), 'after (_,_,2)');
  await page.click('#zoom-fit');
  for (const id of ['#panel-before-0', '#panel-after-0', '#panel-after-2']) {
    const inside = await page.evaluate((sel) => {
      const c = document.querySelector('#canvas').getBoundingClientRect();
      const p = document.querySelector(sel).getBoundingClientRect();
      return p.left >= c.left - 1 && p.right <= c.right + 1;
    }, id);
    assert.ok(inside, `${id} fits the width`);
  }
  await shot('02b-staged-smem-fitted');
  // A bank check of the ldmatrix that reads it, in one line of the block.
  await typeExpr(page, 'M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))\nbank_conflicts(Sw<3,3,3> o 0 o (128,64):(64,1), make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M))');
  assert.match(await page.textContent('#results'), /conflict-free/);
  await shot('03-bank-check');
  // The same question in one line: the instruction's canonical access over the layout.
  await typeExpr(page, 'bank_conflicts(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{}), LDS128)');
  assert.match(await page.textContent('#results'), /LDS\.128, 16-bit elements, 8 per lane: 512 threads \(16 warps\)/);
  await shot('03b-one-line-bank-check');
  // The atom alone does not cover the copy's tile: the error names both.
  await page.fill('#editor', 'M = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1))\nbank_conflicts(GMMA::Layout_K_SW128_Atom<half_t>{}, make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), M))');
  await page.waitForSelector('#draw-error');
  assert.match(await page.textContent('#draw-error'), /the copy's tile is 32x16 .* the shared-memory layout is 8x64/);
  await shot('04-tile-mismatch');
  // A search, then its third row opened.
  await page.selectOption('#preset', { label: 'Which swizzle fixes the column reads?' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'search');
  await shot('05-search');
  await clickCell(page, 'ranking', 2, 0);
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'banks');
  await shot('06-search-row-opened');
  // The Hopper and Blackwell presets.
  for (const [name, label, view] of [
    ['07-gmma-desc', 'Hopper 128x128x64 F16 GEMM: smem A (K-major SW128) and its GMMA descriptor', 'descriptor'],
    ['08-tma', 'TMA 128B swizzle: K-major 64x64 half tile of an (M,K) row-major matrix', 'tma'],
    ['09-tmem', 'Blackwell 128x256 UMMA accumulator (float) in TMEM', 'tmem'],
    ['10-umma-instr-desc', 'Blackwell UMMA 128x256 F16 -> F32: instruction descriptor', 'descriptor'],
    ['11-gmma-staged', 'GMMA K-major SW128, half_t: 128x64x3', 'swizzle'],
  ]) {
    await page.selectOption('#preset', { label });
    await page.waitForFunction((v) => document.querySelector('#canvas svg')?.dataset.view === v, view);
    await shot(name);
  }
  // A float atom: 32-bit banks from its smem_ptr, the inspector on a cell.
  await typeExpr(page, 'GMMA::Layout_K_SW128_Atom<float>{}');
  await hoverCell(page, 'after', 1, 2);
  await shot('12-float-atom-inspected');
  // Share: the link opens the same picture in a fresh page.
  const url = await pageUrl(page);
  const shared = await ctx.newPage();
  await shared.goto(url);
  await shared.waitForSelector('#canvas svg');
  assert.equal(await shared.textContent('#canvas svg title'), 'GMMA::Layout_K_SW128_Atom<float>{}');
  await shared.screenshot({ path: `${OUT}/tour-13-shared-link.png` });
  await shared.close();
  // Export the picture.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  assert.equal(dl.suggestedFilename(), 'cute-swizzle.svg');
  assert.match(await readFile(await dl.path(), 'utf8'), /for 32-bit elements \(from smem_ptr\[32b\]/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a pinned cell is in the share URL and reopens pinned', async () => {
  const { page, ctx, errors } = await open();
  await clickCell(page, 'before', 1, 0);
  await page.waitForFunction(() => decodeURIComponent(location.search).includes('pin=before:1:0'));
  const url = await pageUrl(page);
  const other = await ctx.newPage();
  await other.goto(url);
  await other.waitForFunction(() => document.querySelector('#inspector dd[data-key="bank"]'));
  assert.match(await other.textContent('#inspector'), /Pinned cell/);
  assert.equal(await other.locator('#inspector dd[data-key="bank"]').first().textContent(), '16');
  // A new expression releases the pin.
  await typeExpr(other, '(4,8):(8,1)');
  await other.waitForFunction(() => !location.search.includes('pin='));
  await other.close();
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('coalescing: a misaligned global tile from a preset, inspected, and from a shared link', async () => {
  const { page, ctx, errors } = await open('', { width: 1600, height: 1000 });
  await page.selectOption('#preset', { label: 'Rows of 40 halves from byte 48: 80% of fetched bytes used' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'coalescing');
  assert.match(await page.textContent('#results'), /LDG\.E\.64, 16-bit elements, 4 per lane, base 48: .* 40 sectors, min 32; 14 lines, min 8/);
  // Warp 0's instruction: 10 sectors over 3 lines; the notes say it.
  assert.match(await page.textContent('#answers'), /instruction 0: 10 sectors, min 8; 3 lines, min 2; 256 bytes asked, 80% of fetched bytes used/);
  // Byte 48 of line 0 is thread 0's; byte 32 is in its sector but nobody's (grey).
  await page.locator('#panel-i0 .cell[data-byte="48"]').hover();
  assert.equal(await inspectorRow(page, 'lanes'), '0');
  assert.equal(await inspectorRow(page, '32-byte sector'), '1');
  await page.locator('#panel-i0 .cell[data-byte="32"]').hover();
  assert.equal(await inspectorRow(page, 'byte'), '32');
  assert.match(await page.getAttribute('#panel-i0 .cell[data-byte="32"]', 'class'), /waste/);
  await page.screenshot({ path: `${OUT}/coalescing.png` });
  const url = await pageUrl(page);
  const other = await ctx.newPage();
  await other.goto(url);
  await other.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'coalescing');
  assert.match(await other.textContent('#answers'), /instruction 0: 10 sectors, min 8/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('tensors: a thread\'s partition from a preset, lit and inspected, and from a shared link', async () => {
  const { page, ctx, errors } = await open('', { width: 1600, height: 1000 });
  await page.selectOption('#preset', { label: 'SM80 mainloop: thread 37\'s part of sA (partition_A)' });
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'partition');
  // The block of declarations prints what its last one declares: the tensor C++ prints.
  assert.match(await page.textContent('#results'), /smem_ptr\[16b\]\(0x444\) o \(\(2,2,2\),2,2\):\(\(1,256,8\),1024,16\)/);
  // Thread 37's 32 elements; the first is (17, 2), its V0, and V1 next to it (stride 1).
  assert.match(await page.textContent('#answers'), /thread 37: 32 elements/);
  await hoverCell(page, 'partition', 17, 2);
  assert.equal(await inspectorRow(page, 'thread'), '37');
  assert.equal(await inspectorRow(page, 'value'), '0');
  assert.equal(await inspectorRow(page, 'coordinate'), '((0,0,0),0,0)');
  await hoverCell(page, 'partition', 17, 3);
  assert.equal(await inspectorRow(page, 'value'), '1');
  assert.equal(await inspectorRow(page, 'coordinate'), '((1,0,0),0,0)');
  // Thread 101 (the other N half) holds the same elements.
  assert.match(await inspectorRow(page, 'also'), /T101V1/);
  await page.screenshot({ path: `${OUT}/partition.png` });
  // The shared link draws the same.
  const url = await pageUrl(page);
  const other = await ctx.newPage();
  await other.goto(url);
  await other.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'partition');
  assert.match(await other.textContent('#answers'), /thread 37: 32 elements/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('kernel: every preset, every row opens its own view, each from its shared link', async () => {
  const { page, ctx, errors } = await open('', { width: 1600, height: 1000 });
  const labels = await page.$$eval('#preset optgroup[label="Whole kernel"] option', (os) => os.map((o) => o.textContent));
  assert.equal(labels.length, 14);
  const kernelView = () => page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  let opened = 0;
  for (const label of labels) {
    await page.selectOption('#preset', { label });
    await kernelView();
    const rows = await page.$$eval('#panel-report .cell[data-col="0"]', (cs) => cs.map((c) => ({ object: c.dataset.object, open: c.dataset.open ?? '' })));
    assert.ok(rows.length >= 5, `${label}: ${rows.length} rows`);
    // A shared link reopens the same report.
    const url = await pageUrl(page);
    const other = await ctx.newPage();
    await other.goto(url);
    await other.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
    assert.equal(await other.locator('#panel-report .cell[data-col="0"]').count(), rows.length, `${label}: from its link`);
    await other.close();
    for (const [i, row] of rows.entries()) {
      if (!row.open) continue;
      await page.locator('#panel-report .cell[data-col="0"]').nth(i).click();
      // The row's object in its own view, drawn without an error.
      await page.waitForFunction(() => {
        const svg = document.querySelector('#canvas svg');
        return (svg && svg.dataset.view !== 'kernel') || document.querySelector('#draw-error');
      });
      assert.equal(await page.locator('#draw-error').count(), 0, `${label}: ${row.object} opens without an error`);
      opened += 1;
      await page.goBack();
      await kernelView();
    }
  }
  // Every preset's rows but budgets and kernel totals open something.
  assert.ok(opened >= 20, `${opened} rows opened`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('kernel: the report is a text table whose every number is on screen, on a laptop and a phone', async () => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    const { page, ctx, errors } = await open('', viewport);
    await page.selectOption('#preset', { label: 'SM100 CollectiveBuilder lines, Auto: a 2-SM UMMA on a 2x2 cluster, 256x128x64' });
    await page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
    assert.equal(await page.locator('#canvas table#panel-report').count(), 1);
    assert.equal(await page.textContent('#zoom-level'), '100%');
    const cells = page.locator('#panel-report td[data-field="headline"]');
    const n = await cells.count();
    assert.ok(n >= 9, `${n} rows`);
    for (let i = 0; i < n; i++) {
      const c = cells.nth(i);
      await c.scrollIntoViewIfNeeded();
      const box = await c.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width + 1, `row ${i} inside ${viewport.width}px: ${JSON.stringify(box)}`);
      const px = await c.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      assert.ok(px >= 12, `row ${i}: ${px}px text`);
    }
    assert.match(await cells.first().textContent(), /^8 stages of 256x128x64, SM100_MMA_F16BF16_2x1SM_SS/);
    await page.screenshot({ path: `${OUT}/kernel-table-${viewport.width}.png`, fullPage: true });
    assert.deepEqual(errors, []);
    await ctx.close();
  }
  // On the page a row's facts are the inspector's rows: a TMA row's cuTensorMapEncodeTiled
  // arguments (A's multicast box cut in half), a descriptor row's decoded fields.
  const { page, ctx, errors } = await open('', { width: 1600, height: 1000 });
  await page.selectOption('#preset', { label: 'SM90 CollectiveBuilder line: CUTLASS picks the smem atoms, GMMA, TMA and 7 stages' });
  await page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  await page.locator('#panel-report .cell[data-object="CollectiveMainloop::GmemTiledCopyA"][data-col="3"]').hover();
  assert.match(await inspectorRow(page, 'cuTensorMapEncodeTiled'), /globalDim \{4096, 4096\}.*boxDim \{64, 64\}/);
  assert.match(await inspectorRow(page, 'op'), /^SM90_TMA_LOAD_MULTICAST$/);
  await page.locator('#panel-report .cell[data-object="CollectiveMainloop::TiledMma.A"][data-col="0"]').hover();
  assert.match(await inspectorRow(page, 'tile 0, k-block 1, stage 0'), /GmmaDescriptor: 0x4000004000010002 \(start_addr: 0x0002, leading_off: 0x0001 \(1\), stride_off: 0x0040 \(64\)/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('kernel: a pasted CollectiveBuilder block opens as its report', async () => {
  const { page, ctx, errors } = await open('?expr=(8,8):(8,1)');
  const block = await readFile(new URL('../crates/cute-lang/kernels/sm120_builder.cpp', import.meta.url), 'utf8');
  await page.fill('#editor', block);
  await page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  assert.equal(await page.inputValue('#view'), 'auto');
  assert.match(await page.textContent('#canvas h2'), /kernel report \(SM120\): fail/);
  assert.match(await page.textContent('#answers'), /109 KiB of shared memory is over the SM120 limit of 99 KiB\. Fix: at most 2 stages fit/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('kernel: a host function pasted whole opens as its report, with what it left out', async () => {
  const { page, ctx, errors } = await open('?expr=(8,8):(8,1)', { width: 1366, height: 900 });
  const block = await readFile(new URL('../crates/cute-lang/kernels/sm80_host_function.cpp', import.meta.url), 'utf8');
  await page.fill('#editor', block);
  await page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  assert.equal(await page.inputValue('#view'), 'auto');
  assert.match(await page.textContent('#canvas h2'), /kernel report \(SM80\): ok/);
  // The host row counts what was left out; hovering it lists each line and why.
  const host = page.locator('#panel-report .cell[data-object="gemm_tn(...)"][data-col="3"]');
  assert.match(await host.textContent(), /10 parameters without a value, 13 lines left out/);
  await host.hover();
  assert.match(await inspectorRow(page, 'line 60'), /left out `dim3 dimBlock\(size\(mmaC\)\)`: launch code/);
  await page.screenshot({ path: `${OUT}/kernel-host.png` });
  // No line of the block is an error; the results list what was left out, at their lines.
  assert.equal(await page.locator('.line-error').count(), 0);
  assert.equal(await page.locator('#results li.note').count(), 14);
  assert.match(await page.textContent('#results li.note[data-line="60"]'), /note: left out `dim3 dimBlock\(size\(mmaC\)\)`: launch code/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('kernel: a whole configuration checked, a row opens its object, and from a shared link', async () => {
  const { page, ctx, errors } = await open('', { width: 1600, height: 1000 });
  await page.selectOption('#preset', { label: 'A broken SM80 configuration: every warning' });
  await page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  // Row 6 is s2r_atom_A: ldmatrix from an unswizzled sA, the fix the search computes.
  await page.locator('#panel-report .cell[data-object="s2r_atom_A"][data-col="0"]').hover();
  assert.equal(await inspectorRow(page, 'verdict'), 'warn');
  assert.match(await inspectorRow(page, 'warning'), /8-way bank conflicts\)\. Fix: use Sw<3,3,3>/);
  assert.match(await page.textContent('#answers'), /sA \+ sB \(fail\): 192 KiB of shared memory is over the SM80 limit/);
  await page.screenshot({ path: `${OUT}/kernel.png` });
  const url = await pageUrl(page);
  // The row opens the object's own view: the block with its bank check appended.
  await page.locator('#panel-report .cell[data-object="s2r_atom_A"][data-col="0"]').click();
  await page.waitForFunction(() => document.querySelector('#canvas svg')?.dataset.view === 'banks');
  assert.match(await page.inputValue('#editor'), /\nbank_conflicts\(sA\(_,_,0\), make_tiled_copy_A\(s2r_atom_A, mmaC\)\)$/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  // A shared link reopens the report.
  const other = await ctx.newPage();
  await other.goto(url);
  await other.waitForFunction(() => document.querySelector('#canvas [data-view]')?.dataset.view === 'kernel');
  assert.equal(await other.locator('#panel-report .cell[data-col="0"]').count(), 9);
  assert.deepEqual(errors, []);
  await ctx.close();
});
