// Opening a shared link on a real network, side by side with the plain-JS web peer
// (kainzhong/CuTe-Layout-Visualizer): both served gzip-encoded as a static host serves them,
// the same headless Chromium with the network throttled and the cache off, a link to a
// 64x64 layout opened until its picture is painted (the frame after it is in the DOM).
// Reports the median time and the bytes that crossed the wire before that paint.
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
    painted: () => document.querySelector('#canvas svg title')?.textContent.trim() === '(64,64):(64,1)',
  },
  PEER && {
    name: 'the peer',
    root: PEER,
    query: `?key=${encodeURIComponent('layout-(64,64):(64,1)')}`,
    painted: () => document.querySelectorAll('svg rect').length >= 64 * 64,
  },
].filter(Boolean);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const result = {};
try {
  for (const site of SITES) {
    const server = await serve(site.root);
    const url = `http://127.0.0.1:${server.address().port}/some/prefix/${site.query}`;
    for (const [net, cond] of Object.entries(NETWORKS)) {
      const ms = [], bytes = [];
      for (let r = 0; r < RUNS; r++) {
        const ctx = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
        const page = await ctx.newPage();
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await cdp.send('Network.emulateNetworkConditions', { offline: false, ...cond });
        let wire = 0;
        cdp.on('Network.loadingFinished', (e) => { wire += e.encodedDataLength; });
        await page.addInitScript((test) => {
          const painted = new Function(`return (${test})()`);
          window.__painted = new Promise((resolve) => {
            const check = () => {
              if (painted()) requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
              else setTimeout(check, 5);
            };
            check();
          });
        }, site.painted.toString());
        await page.goto(url, { timeout: 120000 });
        ms.push(await page.evaluate(() => window.__painted));
        bytes.push(wire);
        await ctx.close();
      }
      result[`${site.name}, ${net}`] = { median_ms: median(ms), runs_ms: ms.map(Math.round), bytes_before_paint: median(bytes) };
      console.log(`${site.name.padEnd(10)} ${net.padEnd(34)} ${median(ms).toFixed(0).padStart(6)} ms  ${(median(bytes) / 1024).toFixed(0).padStart(5)} KB  (runs: ${ms.map(Math.round).join(', ')})`);
    }
    server.close();
  }
} finally {
  await browser.close();
}
await mkdir(OUT, { recursive: true });
await writeFile(`${OUT}/links.json`, JSON.stringify(result, null, 2));
