// Page benchmark (a scripted measurement, not a test): gzipped size of the wasm + js,
// first paint of the default view on loopback, and edit → painted latency for 64x64 and
// 256x256 layouts, in Debian's headless Chromium. Build first: `trunk build --release`.
//
//   node bench/web.mjs [--runs N]      (prints a table, writes bench/out/web.json)
//
// "Painted" = the frame after the new SVG is in the DOM: a MutationObserver on the canvas
// sees the new SVG, then requestAnimationFrame + a zero timeout run after that frame's
// paint. Edits alternate between two layouts of the same size so every edit redraws.
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve } from '../e2e/serve.mjs';

const DIST = new URL('../dist', import.meta.url).pathname;
const OUT = new URL('./out', import.meta.url).pathname;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking'];

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p90 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(s.length * 0.9) - 1)]; };

// 1. Size.
const files = await readdir(DIST);
const size = {};
for (const f of files.filter((f) => /\.(wasm|js)$/.test(f))) {
  const b = await readFile(`${DIST}/${f}`);
  size[f.endsWith('.wasm') ? 'wasm' : 'js'] = { raw: b.length, gz: gzipSync(b, { level: 9 }).length };
}
size.total_gz = (size.wasm?.gz ?? 0) + (size.js?.gz ?? 0);

const server = await serve(DIST);
const base = `http://127.0.0.1:${server.address().port}/some/prefix/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ARGS });
const result = { size, runs: RUNS };
try {
  // 2. First paint of the default view (fresh context each time: no cache).
  const fcp = [], drawn = [];
  for (let i = 0; i < Math.max(5, Math.floor(RUNS / 2)); i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      window.__painted = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          if (document.querySelector('#canvas svg')) {
            obs.disconnect();
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
          }
        });
        obs.observe(document, { childList: true, subtree: true });
      });
    });
    await page.goto(base);
    drawn.push(await page.evaluate(() => window.__painted));
    fcp.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
    await ctx.close();
  }
  result.first_contentful_paint_ms = median(fcp);
  result.default_view_painted_ms = median(drawn);

  // 3. Edit → painted.
  const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
  page.on('crash', () => console.error('the page crashed'));
  await page.goto(base);
  await page.waitForSelector('#canvas svg');
  const edit = (text) => page.evaluate((text) => new Promise((resolve) => {
    const canvas = document.querySelector('#canvas');
    const ta = document.querySelector('#editor');
    const obs = new MutationObserver(() => {
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
    });
    obs.observe(canvas, { childList: true });
    ta.value = text;
    const t0 = performance.now();
    ta.dispatchEvent(new Event('input', { bubbles: true }));
    setTimeout(() => resolve(NaN), 20000); // never hang the benchmark
  }), text);
  for (const n of [64, 256]) {
    const a = `(${n},${n}):(${n},1)`, b = `(${n},${n}):(1,${n})`;
    await edit(a); await edit(b); // warm-up
    const xs = [];
    for (let i = 0; i < RUNS; i++) xs.push(await edit(i % 2 ? b : a)); // warm-up ended on b: every edit changes the text
    const inner = await page.textContent('#status');
    result[`edit_${n}x${n}`] = { median_ms: median(xs), p90_ms: p90(xs), min_ms: Math.min(...xs), last_status: inner };
    console.error(n, JSON.stringify(result[`edit_${n}x${n}`]));
  }
  // The seeds' swizzled view at 256x256 (two panels).
  {
    const a = 'Sw<3,4,3> o 0 o (256,256):(256,1)', b = 'Sw<3,3,3> o 0 o (256,256):(256,1)';
    await edit(a); await edit(b);
    const xs = [];
    for (let i = 0; i < Math.max(3, Math.floor(RUNS / 3)); i++) xs.push(await edit(i % 2 ? b : a)); // warm-up ended on b: every edit changes the text
    result.edit_swizzle_256x256 = { median_ms: median(xs), p90_ms: p90(xs), min_ms: Math.min(...xs) };
  }
} finally {
  await browser.close();
  server.close();
}

await mkdir(OUT, { recursive: true });
await writeFile(`${OUT}/web.json`, JSON.stringify(result, null, 2));
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
console.log(`wasm ${kb(size.wasm.raw)} raw / ${kb(size.wasm.gz)} gz, js ${kb(size.js.raw)} raw / ${kb(size.js.gz)} gz, total ${kb(size.total_gz)} gz (goal <= 150 KB)`);
console.log(`first contentful paint ${result.first_contentful_paint_ms.toFixed(0)} ms, default view painted ${result.default_view_painted_ms.toFixed(0)} ms (loopback, median)`);
for (const k of ['edit_64x64', 'edit_256x256', 'edit_swizzle_256x256']) {
  const r = result[k];
  console.log(`${k}: median ${r.median_ms.toFixed(1)} ms, p90 ${r.p90_ms.toFixed(1)} ms, min ${r.min_ms.toFixed(1)} ms${r.last_status ? ` (page: ${r.last_status})` : ''}`);
}
