// Rewrites trunk's index.html for the first picture (run by scripts/first-picture.sh):
// trunk's loader of the app, and its preloads of the app's files, give way to the boot
// script (web/first/boot.js), which loads the first-picture module FIRST (preloaded here)
// and the app after its paint.
//
//   node web/first/inline.mjs STAGING/index.html cute-first-HASH
import { readFileSync, writeFileSync } from 'node:fs';

const [html, first] = process.argv.slice(2);
if (!html || !first) throw new Error('usage: node web/first/inline.mjs INDEX_HTML FIRST_NAME');
let page = readFileSync(html, 'utf8');
const loader = page.match(/<script type="module">\s*import init, \* as bindings from '\.\/([\w-]+)\.js';[\s\S]*?<\/script>/);
if (!loader) throw new Error(`${html}: trunk's loader script of the app was not found`);
const app = loader[1];
page = page.replace(loader[0], '');
for (const re of [
  new RegExp(`<link rel="modulepreload" href="\\./${app}\\.js"[^>]*>`),
  new RegExp(`<link rel="preload" href="\\./${app}_bg\\.wasm"[^>]*>`),
]) {
  if (!re.test(page)) throw new Error(`${html}: trunk's preload ${re} was not found`);
  page = page.replace(re, '');
}
const boot = readFileSync(new URL('./boot.js', import.meta.url), 'utf8')
  .replaceAll('@FIRST@', first)
  .replaceAll('@APP@', app);
const head =
  `<link rel="modulepreload" href="./${first}.js">` +
  `<link rel="preload" href="./${first}_bg.wasm" as="fetch" type="application/wasm" crossorigin>\n` +
  `<script type="module">\n${boot}</script>\n`;
if (!page.includes('</head>')) throw new Error(`${html}: no </head>`);
page = page.replace('</head>', `${head}</head>`);
writeFileSync(html, page);
