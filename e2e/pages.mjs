// What the end-to-end files share: a fresh page that records uncaught errors and dialogs,
// the page's URL once it has written its state, and an edit waited on until it is drawn.

/** A fresh page of `site` (from `serveAndLaunch`) at `query`, once a drawing or its error is
 * shown; `settled`: also once the first picture's stand-in has given way to the app. The
 * returned `errors` collects uncaught page errors and dialogs (a test expects it empty). */
export async function openPage(site, query = '', { viewport = { width: 1400, height: 900 }, timeout = 15000, settled = false } = {}) {
  const ctx = await site.browser.newContext({ viewport, acceptDownloads: true });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.goto(site.base + query);
  await page.waitForSelector('#canvas [data-view], #draw-error', { timeout });
  if (settled) await page.waitForFunction(() => !document.getElementById('first'), null, { timeout });
  return { page, ctx, errors };
}

/** The page's URL once it has written the last state (typing rewrites it after a pause). */
export async function pageUrl(page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-url-pending'));
  return page.url();
}

/** Replace the editor's text as a user typing would (one input event); wait until the
 * drawing shows it: its SVG's title is `title` (by default the text's last line) and no
 * error is shown. */
export async function typeExpr(page, text, { title = text.trim().split('\n').pop().trim(), timeout = 15000 } = {}) {
  // The 2,000-line script's test takes ~33 s alone on two cores, and under load its fill
  // passed Playwright's 30 s default; the page's own paste is timed in bench/web.mjs.
  await page.fill('#editor', text, { timeout: Math.max(timeout, 30000) });
  await page.waitForFunction((t) => {
    const el = document.querySelector('#canvas svg title');
    return el && el.textContent.trim() === t && !document.querySelector('#draw-error');
  }, title, { timeout });
}
