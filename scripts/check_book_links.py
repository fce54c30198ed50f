#!/usr/bin/env python3
"""Checks the built book: every relative link and image of every page reaches a file of the
book, and every `#anchor` an id on the page it names. Exits 1 with the broken links listed.

    python3 scripts/check_book_links.py docs/book
"""
import html.parser
import pathlib
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(a[key])


def parse(path, cache={}):
    if path not in cache:
        p = Page()
        p.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = p
    return cache[path]


def main(root):
    root = pathlib.Path(root).resolve()
    pages = sorted(root.rglob("*.html"))
    if not pages:
        sys.exit(f"error: no pages under {root} (build the book first)")
    broken = []
    for page in pages:
        for link in parse(page).links:
            url = urllib.parse.urlsplit(link)
            if url.scheme or url.netloc or link.startswith(("mailto:", "javascript:")) or page.name == "404.html":
                continue
            target = page if not url.path else (page.parent / urllib.parse.unquote(url.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if root not in target.parents and target != root:
                broken.append(f"{page.relative_to(root)}: {link} leaves the book")
            elif not target.exists():
                broken.append(f"{page.relative_to(root)}: {link} (no {target.relative_to(root)})")
            elif url.fragment and target.suffix == ".html" and url.fragment not in parse(target).ids:
                broken.append(f"{page.relative_to(root)}: {link} (no #{url.fragment})")
    for b in broken:
        print(b)
    print(f"{len(pages)} pages, {len(broken)} broken links")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/book")
