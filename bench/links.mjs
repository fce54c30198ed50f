// Opening a shared link on a real network, side by side with the plain-JS web peer
// (kainzhong/CuTe-Layout-Visualizer): both served gzip-encoded as a static host serves them,
// the same headless Chromium with the network throttled and the cache off, a link to a
// 64x64 layout opened until its picture is painted (the frame after it is in the DOM).
// Reports the median time, the bytes that crossed the wire before that paint, and (this
// page) when the app is ready to edit: the first picture comes from a small module, the app
// after it.
//
//   git clone https://github.com/kainzhong/CuTe-Layout-Visualizer /tmp/peer
//   trunk build --release
//   node bench/links.mjs --peer /tmp/peer [--runs N] [--dist DIR]   (writes bench/out/links.json)
//
// Without --peer only this page is measured.
import { mkdir, writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { serve, CHROMIUM_ARGS } from '../e2e/serve.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const RUNS = Number(arg('--runs', 3));
const DIST = arg('--dist', new URL('../dist', import.meta.url).pathname);
const PEER = arg('--peer', null);
const OUT = new URL('./out', import.meta.url).pathname;

// Chrome DevTools' presets, in bytes per second and milliseconds of round trip.
const NETWORKS = {
  'slow 4G (1.6 Mbit/s, 150 ms RTT)': { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 },
  'cable (10 Mbit/s, 40 ms RTT)': { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 2e6 / 8 },
};

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// What each page's shared link to a 64x64 layout is, and when its picture is painted.
const SITES = [
  {
    name: 'this page',
    root: DIST,
    query: `?expr=${encodeURIComponent('(64,64):(64,1)')}`,
    painted: () => document.querySelector('#first-canvas svg title, #canvas svg title')?.textContent.trim() === '(64,64):(64,1)',
    ready: () => document.querySelector('#canvas svg title')?.textContent.trim() === '(64,64):(64,1)' && !document.getElementById('first'),
  },
  PEER && {
    name: 'the peer',
    root: PEER,
    query: `?key=${encodeURIComponent('layout-(64,64):(64,1)')}`,
    painted: () => document.querySelectorAll('svg rect').length >= 64 * 64,
    ready: () => document.querySelectorAll('svg rect').length >= 64 * 64,
  },
].filter(Boolean);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const result = {};
try {
  for (const site of SITES) {
    const server = await serve(site.root);
    const url = `http://127.0.0.1:${server.address().port}/some/prefix/${site.query}`;
    for (const [net, cond] of Object.entries(NETWORKS)) {
      const ms = [], bytes = [], ready = [];
      for (let r = 0; r < RUNS; r++) {
        const ctx = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
        const page = await ctx.newPage();
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await cdp.send('Network.emulateNetworkConditions', { offline: false, ...cond });
        await page.addInitScript(([painted, ready]) => {
          // The frame after the test first holds: when a person sees it.
          const when = (src) => {
            const test = new Function(`return (${src})()`);
            return new Promise((resolve) => {
              const check = () => {
                if (test()) requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
                else setTimeout(check, 5);
              };
              check();
            });
          };
          window.__painted = when(painted);
          window.__ready = when(ready);
        }, [site.painted.toString(), site.ready.toString()]);
        await page.goto(url, { timeout: 120000 });
        const t = await page.evaluate(() => window.__painted);
        // What had arrived by then (headers included), from the page's own timing entries.
        bytes.push(await page.evaluate((t) => {
          const nav = performance.getEntriesByType('navigation')[0];
          return nav.transferSize + performance.getEntriesByType('resource')
            .filter((r) => r.responseEnd <= t).reduce((n, r) => n + r.transferSize, 0);
        }, t));
        ms.push(t);
        ready.push(await page.evaluate(() => window.__ready));
        await ctx.close();
      }
      result[`${site.name}, ${net}`] = {
        median_ms: median(ms), runs_ms: ms.map(Math.round), bytes_before_paint: median(bytes),
        ready_median_ms: median(ready), ready_runs_ms: ready.map(Math.round),
      };
      console.log(`${site.name.padEnd(10)} ${net.padEnd(34)} painted ${median(ms).toFixed(0).padStart(6)} ms  ${(median(bytes) / 1024).toFixed(0).padStart(5)} KB  ready ${median(ready).toFixed(0).padStart(6)} ms  (runs: ${ms.map(Math.round).join(', ')})`);
    }
    server.close();
  }
} finally {
  await browser.close();
}
await mkdir(OUT, { recursive: true });
await writeFile(`${OUT}/links.json`, JSON.stringify(result, null, 2));
