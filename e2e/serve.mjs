// A static file server for dist/ mounted under a sub-path (default /some/prefix/), as a
// GitHub Pages project site is: the page must work from any prefix. Used by the
// end-to-end tests and the page benchmark; `node e2e/serve.mjs [port]` serves by hand.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Debian's Chromium, headless, as the tests and the page benchmark launch it. */
export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu',
  '--disable-dev-shm-usage', '--disable-background-networking'];

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};

/** `root` served under /some/prefix/ and Debian's headless Chromium, as a test file starts
 * them; `close()` ends both (call it even after failures, or Chromium processes linger). */
export async function serveAndLaunch(root) {
  const { chromium } = await import('playwright-core');
  const server = await serve(root);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS,
  }).catch((e) => { server.close(); throw e; });
  const base = `http://127.0.0.1:${server.address().port}/some/prefix/`;
  return { browser, base, close: async () => { await browser.close(); server.close(); } };
}

/** Serve `root` under `prefix` on 127.0.0.1:`port` (0 = any); resolves to the server. */
export function serve(root, prefix = '/some/prefix/', port = 0) {
  // Each file compressed once, as a static host keeps it (compressing per request would
  // charge the page's first paint with the server's work).
  const gzipped = new Map();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404); res.end('outside the prefix'); return; }
    let rel = normalize(decodeURIComponent(url.pathname.slice(prefix.length)));
    if (rel === '.' || rel === '' || rel.endsWith('/')) rel = join(rel, 'index.html');
    if (rel.startsWith('..')) { res.writeHead(403); res.end(); return; }
    try {
      let body = await readFile(join(root, rel));
      const headers = { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream', 'cache-control': 'no-store' };
      // Pages serves gzip; so does this, so first-paint numbers see realistic transfer sizes.
      if ((req.headers['accept-encoding'] ?? '').includes('gzip')) {
        const key = join(root, rel);
        if (!gzipped.has(key)) gzipped.set(key, gzipSync(body));
        body = gzipped.get(key);
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch { res.writeHead(404); res.end('not found'); }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await serve(new URL('../dist', import.meta.url).pathname, '/some/prefix/', Number(process.argv[2] ?? 8090));
  console.log(`serving dist/ at http://127.0.0.1:${s.address().port}/some/prefix/`);
}

/** A script of `n` lines as long pastes are: layouts, swizzles and divides, bound and
 * reused, every fourth line printing one (the e2e test and the benchmark paste it). */
export function longScript(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    const k = i % 4;
    if (k === 0) lines.push(`L${i} = make_layout(make_shape(${2 + i % 7},${8 + i % 5}), make_stride(${8 + i % 5},1))`);
    else if (k === 1) lines.push(`C${i} = composition(Sw<3,4,3>{}, make_layout(make_shape(8,64), make_stride(64,1)))`);
    else if (k === 2) lines.push(`D${i} = logical_divide(L${i - 2}, make_tile(2:1, 4:1))`);
    else lines.push(`coalesce(L${i - 3})`);
  }
  return lines.join('\n');
}
