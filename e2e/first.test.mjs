// End-to-end tests of the first picture: a shared link's figure drawn by a small module
// (web/first) before the page's app has arrived, then replaced by the app's own drawing.
// Run with the rest: node --test --test-concurrency=1 e2e/   (after `trunk build --release`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch } from './serve.mjs';

const DIST = new URL('../dist', import.meta.url).pathname;
let site, browser, base;

before(async () => {
  site = await serveAndLaunch(DIST);
  ({ browser, base } = site);
});

after(async () => {
  // Always close, even after failures, or Chromium processes linger.
  await site?.close();
});

const VIEWPORT = { width: 1400, height: 900 };

// A figure's markup without what only the page sets: its size on screen.
const markup = (svg) => svg.replace(/^<svg([^>]*?) style="[^"]*"/, '<svg$1');

/** What a cold start of `query` shows before the app: the first picture's SVG (or null
 * when the module left the link to the app) and the module that drew it. `block` names the
 * files that never arrive (the app's, by default). */
async function firstPicture(query, block = /cute-web-/) {
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  const page = await ctx.newPage();
  const errors = [];
  // The blocked files' own failures are the point; any other error is the test's.
  page.on('pageerror', (e) => { if (!block.test(e.message)) errors.push(e.message); });
  await page.route(block, (r) => r.abort());
  await page.goto(base + query);
  // The boot either fills the stand-in or removes it.
  await page.waitForFunction(() => document.querySelector('#first-canvas svg')
    || (performance.getEntriesByName('first:drawn').length > 0 && !document.getElementById('first')),
  null, { timeout: 15000 });
  const svg = await page.$eval('#first-canvas svg', (s) => s.outerHTML).catch(() => null);
  const module = await page.evaluate(() => window.cuteFirst);
  const editor = await page.$eval('#first textarea', (t) => t.value).catch(() => null);
  // The grids painted under the SVG: their size in cells and their first row's pixels.
  const fills = await page.$$eval('#first-canvas canvas.first-fills', (cs) => cs.map((c) => ({
    cols: c.width, rows: c.height,
    row0: [...c.getContext('2d').getImageData(0, 0, c.width, 1).data],
  })));
  await ctx.close();
  return { svg, module, editor, fills, errors };
}

/** The app's drawing of `query` from a cold start. */
async function appPicture(query) {
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + query);
  await page.waitForSelector('#canvas [data-view]', { timeout: 15000 });
  await page.waitForFunction(() => !document.getElementById('first'));
  const svg = await page.$eval('#canvas svg', (s) => s.outerHTML).catch(() => null);
  await ctx.close();
  return { svg, errors };
}

test('the first picture of every preset is the app\'s picture, drawn before the app arrives', async () => {
  // Every preset's shared link, as the page writes it.
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  const page = await ctx.newPage();
  await page.goto(base);
  await page.waitForSelector('#canvas [data-view]', { timeout: 15000 });
  const values = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter((v) => v !== ''));
  const links = [];
  for (const v of values) {
    await page.selectOption('#preset', v);
    await page.waitForFunction(() => document.querySelector('#canvas [data-view]') && !document.querySelector('#canvas.stale'));
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-url-pending'));
    const view = await page.$eval('#canvas [data-view]', (e) => e.dataset.view);
    links.push({ query: new URL(page.url()).search, view, label: await page.$eval(`#preset option[value="${v}"]`, (o) => o.textContent) });
  }
  await ctx.close();
  const drawn = [];
  for (const { query, view, label } of links) {
    const first = await firstPicture(query);
    assert.deepEqual(first.errors, [], label);
    // The module has the layout, swizzle, TV and algebra views; any other waits for the app.
    if (!['layout', 'swizzle', 'tv', 'algebra'].includes(view)) {
      assert.equal(first.svg, null, `${label}: a ${view} view is the app's`);
      continue;
    }
    if (first.svg === null) continue;
    drawn.push(label);
    const app = await appPicture(query);
    assert.deepEqual(app.errors, [], label);
    assert.equal(markup(first.svg), markup(app.svg), `${label}: the first picture differs from the app's`);
  }
  // The seeds, swizzle atoms, smem layouts, SM80 atoms and the algebra (a tensor or a pasted
  // block with a name the light language lacks waits for the app).
  assert.ok(drawn.length >= 25, `${drawn.length} presets drawn first: ${drawn.join('; ')}`);
});

test('a shared layout or swizzle literal comes from the literal module, anything else from the first-picture module', async () => {
  const cases = [
    ['(64,64):(64,1)', 'cute-literal-'],
    ['((2,4),8):((1,16),2)', 'cute-literal-'],
    ['Sw<3,4,3> o 0 o (8,64):(64,1)', 'cute-literal-'],
    ['make_layout_tv((4,8):(8,1), (4,1):(1,0))', 'cute-first-'],
    ['logical_divide((4,2,3):(2,1,8), 4:2)', 'cute-first-'],
  ];
  for (const [expr, module] of cases) {
    const query = `?expr=${encodeURIComponent(expr)}`;
    const first = await firstPicture(query);
    assert.ok(first.module.startsWith(module), `${expr}: ${first.module}`);
    assert.ok(first.svg?.includes(`<title>${expr.replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</title>`), `${expr}: no first picture`);
    assert.equal(first.editor, expr);
    const app = await appPicture(query);
    assert.equal(markup(first.svg), markup(app.svg), `${expr}: the first picture differs from the app's`);
  }
  // A big layout's cells are not in its SVG: they are painted under it, one pixel a cell,
  // coloured by offset mod 8 as the app colours them.
  const big = await firstPicture(`?expr=${encodeURIComponent('(64,64):(64,1)')}`);
  assert.equal(big.fills.length, 1);
  const [{ cols, rows, row0 }] = big.fills;
  assert.deepEqual([cols, rows], [64, 64]);
  const px = (c) => row0.slice(4 * c, 4 * c + 4).join(',');
  assert.ok(row0.every((v, i) => i % 4 !== 3 || v === 255), 'every cell painted');
  assert.equal(new Set(Array.from({ length: 8 }, (_, c) => px(c))).size, 8, 'offsets 0..7 in 8 colours');
  assert.equal(px(8), px(0), 'offset 8 as offset 0');
});

test('without the first-picture modules, or with a link they cannot draw, the app draws as before', async () => {
  // The modules fail to load: the stand-in goes, the app draws the link.
  for (const query of [`?expr=${encodeURIComponent('(8,8):(8,1)')}`, `?expr=${encodeURIComponent('make_layout_tv((4,8):(8,1), (4,1):(1,0))')}`]) {
    const ctx = await browser.newContext({ viewport: VIEWPORT });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route(/cute-(first|literal)-/, (r) => r.abort());
    await page.goto(base + query);
    await page.waitForSelector('#canvas [data-view]', { timeout: 15000 });
    await page.waitForFunction(() => !document.getElementById('first'));
    assert.deepEqual(errors, [], query);
    await ctx.close();
  }
  // A bad literal: neither module draws it; the stand-in goes and the app shows the error.
  const bad = `?expr=${encodeURIComponent('(2,3):(1)')}`;
  const first = await firstPicture(bad);
  assert.equal(first.svg, null);
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  const page = await ctx.newPage();
  await page.goto(base + bad);
  await page.waitForSelector('#draw-error', { timeout: 15000 });
  assert.equal(await page.locator('#first').count(), 0);
  await ctx.close();
});
