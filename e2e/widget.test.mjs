// The Jupyter widget (python/cute_explorer/widget.py) in headless Chromium: its anywidget
// ESM module rendered with a stand-in for anywidget's model, as JupyterLab, Notebook and
// VS Code call it (`render({ model, el })`). Checks the picture, the hover inspector, wheel
// zoom about the pointer, drag pan, double-click fit and a redraw from Python.
// Needs the Python package built into .venv-py (scripts/test.sh does it first; $PYTHON
// names another interpreter).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve, CHROMIUM_ARGS } from './serve.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const PYTHON = process.env.PYTHON ?? join(ROOT, '.venv-py/bin/python');

// What Python gives the front end: the module, the SVG, the inspector's labels, and the
// SVG a `redraw(view="layout")` sends.
const DUMP = `
import json, sys
import cute_explorer as cx
from cute_explorer.widget import Widget
w = Widget(cx.evaluate("Sw<3,4,3> o 0 o (8,64):(64,1)"))
first = w.svg
w.redraw(view="layout")
json.dump({"esm": w._esm, "svg": first, "labels": w.labels, "redrawn": w.svg}, sys.stdout)
`;

const PAGE = `<!doctype html><meta charset="utf-8"><body><div id="el" style="width:600px"></div>
<script type="module">
import widget from './widget.js';
const state = await (await fetch('./state.json')).json();
const handlers = {};
const model = {
  get: (k) => state[k],
  on: (ev, f) => { handlers[ev] = f; },
};
window.redraw = () => { state.svg = state.redrawn; handlers['change:svg'](); };
widget.render({ model, el: document.getElementById('el') });
window.ready = true;
</script>`;

let dir, server, browser, page, cellsInSvg;

before(async () => {
  const out = execFileSync(PYTHON, ['-c', DUMP], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const state = JSON.parse(out);
  cellsInSvg = (state.svg.match(/<g class="cell[ "]/g) ?? []).length;
  dir = await mkdtemp(join(tmpdir(), 'widget-'));
  await writeFile(join(dir, 'widget.js'), state.esm);
  await writeFile(join(dir, 'state.json'), JSON.stringify(state));
  await writeFile(join(dir, 'index.html'), PAGE);
  server = await serve(dir);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS,
  });
  page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/some/prefix/`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 15000 });
  assert.deepEqual(errors, []);
});

after(async () => {
  // Always close, even after failures, or Chromium processes linger.
  await browser?.close();
  server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const transform = () => page.$eval('#el svg', (s) => s.style.transform);

test('the widget shows the picture and the inspector names what a cell holds', async () => {
  // Every cell of the renderer's SVG is in the page (two panels of 8x64 and the legend).
  assert.ok(cellsInSvg > 1024, `${cellsInSvg} cells`);
  assert.equal(await page.$$eval('#el svg g.cell', (cs) => cs.length), cellsInSvg);
  await page.hover('#el g.cell[data-row="2"][data-col="1"]');
  const text = await page.$eval('#el pre', (p) => p.textContent);
  // The cell's row, column, offset and bank, as the figure's data attributes hold them.
  assert.match(text, /row: 2/);
  assert.match(text, /col: 1/);
  assert.match(text, /offset: 129/);
  assert.match(text, /bank: 0/);
});

test('wheel zooms about the pointer, drag pans, double-click fits', async () => {
  assert.equal(await transform(), 'translate(0px, 0px) scale(1)');
  const box = await page.$eval('#el > div', (d) => {
    const r = d.getBoundingClientRect();
    return { x: r.left, y: r.top };
  });
  await page.mouse.move(box.x + 100, box.y + 50);
  await page.mouse.wheel(0, -100);
  await page.waitForFunction(() => document.querySelector('#el svg').style.transform !== 'translate(0px, 0px) scale(1)');
  // Zoomed by 1.1 about (100, 50): that point stays where it was.
  const [tx, ty, s] = (await transform()).match(/-?[\d.]+/g).map(Number);
  assert.ok(Math.abs(s - 1.1) < 1e-9, `scale ${s}`);
  assert.ok(Math.abs(tx - (100 - 100 * 1.1)) < 1e-6 && Math.abs(ty - (50 - 50 * 1.1)) < 1e-6, `${tx} ${ty}`);
  await page.mouse.down();
  await page.mouse.move(box.x + 160, box.y + 90);
  await page.mouse.up();
  const [px, py] = (await transform()).match(/-?[\d.]+/g).map(Number);
  assert.ok(Math.abs(px - (tx + 60)) < 1e-6 && Math.abs(py - (ty + 40)) < 1e-6, `${px} ${py}`);
  await page.dblclick('#el > div');
  const [, , fit] = (await transform()).match(/-?[\d.]+/g).map(Number);
  assert.ok(fit > 0 && fit <= 1, `fit scale ${fit}`);
});

test('a redraw from Python replaces the picture', async () => {
  await page.evaluate(() => window.redraw());
  // The layout view of the same value.
  assert.equal(await page.$eval('#el svg', (s) => s.getAttribute('data-view')), 'layout');
  assert.equal(await transform(), 'translate(0px, 0px) scale(1)');
});
