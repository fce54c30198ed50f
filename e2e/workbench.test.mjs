// The workbench in the release build: tabs that name each other's values, the compare
// mode, cell labels, the LaTeX export and the explanation under the algebra view, each
// from the page's own controls and from a shared link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { serveAndLaunch } from './serve.mjs';
import { openPage, pageUrl, typeExpr } from './pages.mjs';

const DIST = new URL('../dist', import.meta.url).pathname;
const OUT = new URL('./out', import.meta.url).pathname;
let site;

before(async () => {
  await mkdir(OUT, { recursive: true });
  site = await serveAndLaunch(DIST);
});

after(async () => {
  // Always close, even after failures, or Chromium processes linger.
  await site?.close();
});

// The first picture's stand-in gone: the tab row and the toolbar are the app's.
const open = (query = '') => openPage(site, query, { timeout: 30000, settled: true });

const viewOf = (page) => page.$eval('#canvas [data-view]', (e) => e.dataset.view);

test('two tabs: a copy to change, a name for the other\'s value, and both in the link', async () => {
  const { page, ctx, errors } = await open('?expr=' + encodeURIComponent('(4,8):(8,1)'));
  await page.click('#sheet-add');
  assert.equal(await page.inputValue('#editor'), '(4,8):(8,1)', 'a new tab starts as a copy');
  await typeExpr(page, 'coalesce(A)');
  // coalesce of tab A's value: the algebra view draws A's value as the operand.
  assert.equal(await viewOf(page), 'algebra');
  const a = await page.$$eval('#canvas [data-panel="A"] .cell', (cs) => cs.map((c) => Number(c.dataset.offset)));
  assert.deepEqual(a.slice(0, 3), [0, 1, 2], 'row 0 of (4,8):(8,1)');
  assert.equal(a.length, 32);
  assert.match(await page.textContent('#results'), /\(4,8\):\(8,1\)/);
  const url = await pageUrl(page);
  assert.match(url, /tab=A&expr=\(4,8\):\(8,1\)&tab=B&expr=coalesce\(A\)&active=B/);
  await page.click('#sheet-A');
  assert.equal(await page.inputValue('#editor'), '(4,8):(8,1)');
  // The link reopens both tabs, the open one open.
  const again = await open(new URL(url).search);
  assert.equal(await again.page.inputValue('#editor'), 'coalesce(A)');
  assert.deepEqual(await again.page.$$eval('#sheets .sheet.active', (b) => b.map((x) => x.textContent)), ['B']);
  // Closing the other tab: the page has one tab again, and A is no longer a name.
  await again.page.click('#sheet-close');
  assert.deepEqual(await again.page.$$eval('#sheets .sheet', (b) => b.map((x) => x.textContent)), ['A', '+', 'Compare a variant']);
  await again.ctx.close();
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('compare mode: a swizzled atom against its MN-major variant, the differing cells marked and counted', async () => {
  const { page, ctx, errors } = await open('?expr=' + encodeURIComponent('GMMA::Layout_K_SW128_Atom<half_t>{}'));
  // One step: a copy of the atom in tab B, compared with tab A; then the edit.
  await page.click('#sheet-variant');
  await page.waitForSelector('#canvas [data-view="compare"]', { timeout: 20000 });
  assert.equal(await page.inputValue('#cmp'), 'A');
  assert.match(await page.textContent('.side'), /true/, 'a copy equals its original');
  await page.fill('#editor', 'GMMA::Layout_MN_SW128_Atom<half_t>{}');
  await page.waitForFunction(() => /504 of 512 differ/.test(document.querySelector('.side').textContent), null, { timeout: 20000 });
  // The compare view draws more than 128 cells as fills; the answer is in the results.
  const answers = await page.textContent('.side');
  // A is tab A (the K-major atom), whichever tab is open.
  assert.match(answers, /false: at index 1 = \(1,0\), A = 64 and B = 1; 504 of 512 differ/);
  const url = await pageUrl(page);
  assert.match(url, /cmp=A/);
  await page.screenshot({ path: `${OUT}/workbench-compare.png` });
  // From the link: the comparison again; a small pair's cells marked one by one.
  const small = await open('?tab=A&expr=' + encodeURIComponent('(4,2):(1,4)') + '&tab=B&expr=' + encodeURIComponent('(4,2):(2,1)') + '&active=B&cmp=A');
  await small.page.waitForSelector('#canvas [data-view="compare"]');
  const marked = await small.page.$$eval('#canvas .cell.differ', (cs) => cs.length);
  assert.equal(marked, 12, '6 of 8 differ, in both panels');
  await small.ctx.close();
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('labels: the menu relabels every cell, the link keeps it, the SVG export too', async () => {
  const { page, ctx, errors } = await open('?expr=' + encodeURIComponent('((2,2),(2,4)):((1,4),(2,8))'));
  await page.selectOption('#labels', 'coord');
  await page.waitForFunction(() => document.querySelector('#canvas .cell text')?.textContent === '((0,0),(0,0))');
  const texts = await page.$$eval('#canvas .cell text', (t) => t.map((x) => x.textContent));
  assert.ok(texts.includes('((1,1),(1,3))'), texts.join(' '));
  assert.match(await pageUrl(page), /labels=coord/);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const svg = await readFile(await dl.path(), 'utf8');
  assert.ok(svg.includes('>((1,1),(1,3))<'), 'the export keeps the labels');
  // A TV layout by index, from the link.
  const tv = await open('?expr=' + encodeURIComponent('make_layout_tv((2,2):(2,1), (2,1):(1,0))') + '&labels=index');
  const t = await tv.page.$$eval('#canvas .cell text', (x) => x.map((e) => e.textContent));
  assert.ok(t.includes('0') && !t.some((s) => s.startsWith('T')), t.join(' '));
  await tv.ctx.close();
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('LaTeX: the export is print_latex of a TV layout; explain opens under the algebra view', async () => {
  const { page, ctx, errors } = await open('?expr=' + encodeURIComponent('make_layout_tv((2,2):(2,1), (2,1):(1,0))'));
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-tex')]);
  const tex = await readFile(await dl.path(), 'utf8');
  assert.match(tex, /^% Layout TV: ArithTuple\(0,0\) o /);
  assert.match(tex, /\\node\[fill=\{rgb,255:red,175;green,175;blue,255\}\] at \(0,0\) \{\\shortstack\{T0 \\\\ V0\}\};/);
  assert.ok(tex.endsWith('\\end{document}\n'));
  // A value with no LaTeX form: the button says why.
  await typeExpr(page, 'bank_conflicts((32,32):(32,1), 32, (32,1):(32,1), LDS32)');
  assert.equal(await page.isDisabled('#export-tex'), true);
  // explain a logical_divide: one click on the summary under the results.
  await typeExpr(page, 'logical_divide((4,2,3):(2,1,8), 4:2)');
  assert.equal(await viewOf(page), 'algebra');
  await page.click('#explain summary');
  const steps = await page.textContent('#explain-steps');
  assert.match(steps, /complement\(4:2, \(4,2,3\)\)/);
  assert.ok(steps.trim().endsWith('=> ((2,2),(2,3)):((4,1),(2,8))'), steps);
  await page.screenshot({ path: `${OUT}/workbench-explain.png` });
  assert.deepEqual(errors, []);
  await ctx.close();
});
