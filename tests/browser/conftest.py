"""Browser tests: Playwright's sync API driving Debian's headless Chromium against `live_server`.

No browser is downloaded: the tests launch `/usr/bin/chromium` (override with
`MUSTER_CHROMIUM`). Every screenshot lands in `test-artifacts/screenshots/` at a phone and a
desktop width, for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls from a
# thread with a running loop unless told the caller knows what it is doing. The tests do: the
# loop only drives the browser, and every ORM call here is plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("MUSTER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Anything under tests/browser is a browser test, even if a module forgets its marker.
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (run `make browser-deps`)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    """A fresh browser context (no cookies) at phone width, with downloads accepted."""
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


ACCESSIBILITY_PROBLEMS = """
() => {
  const problems = [];
  const fields = document.querySelectorAll(
    'input:not([type=hidden]):not([type=submit]), select, textarea');
  for (const field of fields) {
    const named = field.labels.length || field.getAttribute('aria-label')
      || field.getAttribute('aria-labelledby');
    if (!named) problems.push(`unlabelled ${field.tagName} ${field.name}`);
  }
  const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .map(h => Number(h.tagName[1]));
  if (levels.filter(l => l === 1).length !== 1) problems.push('not exactly one h1');
  levels.forEach((level, i) => {
    if (i && level > levels[i - 1] + 1) problems.push(`h${levels[i - 1]} jumps to h${level}`);
  });
  if (!document.querySelector('main')) problems.push('no main landmark');
  if (!document.documentElement.lang) problems.push('no lang on html');
  return problems;
}
"""


#: htmx is between a request and its settled swap while any of these classes is on the page.
HTMX_BUSY = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def choose(page: Page, label: str, option: str, url_part: str = "/form/") -> None:
    """Pick an option and wait until htmx has put the form for it in place (nothing to wait
    for if it was already picked: the browser fires no change then). A response arriving is
    not the swap done: picking the next option before it settles acts on the element being
    replaced, and the browser then asks for nothing (the table tests failed so, now and then).
    """
    select = page.get_by_label(label, exact=True)
    if select.evaluate("s => s.options[s.selectedIndex].label") == option:
        return
    with page.expect_response(lambda r: url_part in r.url):
        select.select_option(label=option)
    page.wait_for_function(HTMX_BUSY)


def accessibility_problems(page: Page) -> list[str]:
    """Return what breaks the basics: labels on every field, heading order, landmarks."""
    return page.evaluate(ACCESSIBILITY_PROBLEMS)


class Screens:
    """Save a page at phone and desktop width under a readable name.

    Each page photographed is also checked for the accessibility basics, so every screen the
    tests visit is held to them.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def __call__(self, name: str) -> tuple[Path, Path]:
        assert accessibility_problems(self.page) == [], name
        paths = []
        for width_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.page.set_viewport_size(size)
            path = SCREENSHOTS / f"{name}-{width_name}.png"
            self.page.screenshot(path=str(path), full_page=True)
            paths.append(path)
        self.page.set_viewport_size(PHONE)
        return paths[0], paths[1]


@pytest.fixture
def screens(page) -> Screens:
    return Screens(page)


@pytest.fixture
def sign_in(page, live_server):
    """Return a function that signs a user in through the login form."""
    from tests.factories import PASSWORD

    def login(username: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{live_server.url}/")

    return login
