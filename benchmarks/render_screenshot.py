"""Screenshot pages of a rendered site with Debian's Chromium, to look at them.

python benchmarks/render_screenshot.py SITE OUT_DIR [PAGE ...] [--dark] [--width N]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("site", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("pages", nargs="*", default=["index.html"])
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--full", action="store_true", help="the whole page, not the first screen")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(
            viewport={"width": args.width, "height": args.height},
            color_scheme="dark" if args.dark else "light",
        )
        for name in args.pages:
            page.goto((args.site.resolve() / name).as_uri())
            shot = args.out / (name.replace("/", "_").replace("#", "_") + ".png")
            page.screenshot(path=str(shot), full_page=args.full)
            print(shot)
        browser.close()


if __name__ == "__main__":
    main()
