// Rewrites trunk's index.html for the first picture (run by scripts/first-picture.sh):
// trunk's loader of the app, and its preloads of the app's files, give way to the choice of
// a first-picture module (web/first/pick.js, which preloads it) and the boot script
// (web/first/boot.js), which draws with that module FIRST and loads the app after its paint.
//
//   node web/first/inline.mjs STAGING/index.html cute-first-HASH cute-literal-HASH
import { readFileSync, writeFileSync } from 'node:fs';

const [html, first, literal] = process.argv.slice(2);
if (!html || !first || !literal) throw new Error('usage: node web/first/inline.mjs INDEX_HTML FIRST_NAME LITERAL_NAME');
let page = readFileSync(html, 'utf8');
// Trunk writes these tags quoted or, minified, unquoted and reordered.
const loader = page.match(/<script type="?module"?>\s*import init, \* as bindings from '\.\/([\w-]+)\.js';[\s\S]*?<\/script>/);
if (!loader) throw new Error(`${html}: trunk's loader script of the app was not found`);
const app = loader[1];
page = page.replace(loader[0], '');
for (const file of [`${app}.js`, `${app}_bg.wasm`]) {
  const href = file.replaceAll('.', '\\.');
  const re = new RegExp(`<link\\b[^>]*?\\bhref="?\\./${href}"?(?=[\\s>])[^>]*>`);
  const tag = page.match(re);
  if (!tag || !/preload/.test(tag[0])) throw new Error(`${html}: trunk's preload of ${file} was not found`);
  page = page.replace(tag[0], '');
}
// Their whole-line comments are for readers of the scripts, not bytes for every page load.
const script = (file) => readFileSync(new URL(file, import.meta.url), 'utf8')
  .replace(/^\s*\/\/.*\n/gm, '')
  .replaceAll('@FIRST@', first)
  .replaceAll('@LITERAL@', literal)
  .replaceAll('@APP@', app);
// The module's choice before the first stylesheet (a classic script there runs at once and
// starts the transfer); the boot at the end of the head.
const at = page.indexOf('<link');
if (at < 0) throw new Error(`${html}: no <link> to put the module's choice before`);
page = `${page.slice(0, at)}<script>\n${script('./pick.js')}</script>${page.slice(at)}`;
if (!page.includes('</head>')) throw new Error(`${html}: no </head>`);
page = page.replace('</head>', `<script type="module">\n${script('./boot.js')}</script>\n</head>`);
writeFileSync(html, page);
