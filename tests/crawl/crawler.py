"""A same-site crawler on Django's test client: fetch every page an actor can reach, follow
every link (href, htmx hx-get) and submit every form with its default values.

A POST runs inside a savepoint that is rolled back afterwards (with the client's cookies put
back), so each form is tried against the same world and the crawl stays deterministic. The
page a POST redirects to is fetched before the rollback: "after this form, the page breaks"
is the failure that matters most at a table.

Repeated URL patterns are capped (by `resolve(path).route`): a route is fetched for at most
`objects_per_route` distinct objects and `variants_per_object` query strings of each; the
seeds are always fetched. Every answer of 500 or more, and every exception a view raises, is
collected with the page, actor, state and the page the link was found on.
"""

from __future__ import annotations

import json
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve

SKIPPED_SCHEMES = ("mailto:", "tel:", "javascript:", "data:")
SKIPPED_PREFIXES = ("/static/",)
HOST = "testserver"


@dataclass
class Form:
    """A form as the browser would submit it untouched: its action, method and default values."""

    action: str
    method: str
    fields: list[tuple[str, str]]
    htmx: bool = False
    #: The name and value of the first named submit button (a browser sends the one pressed).
    submitter: tuple[str, str] | None = None
    #: Buttons that send the form elsewhere (`formaction`), or send it with another named
    #: value (one form, several buttons): (action, name, value, htmx).
    elsewhere: list[tuple[str, str, str, bool]] = field(default_factory=list)

    def variants(self) -> list[Form]:
        """The form as its default button sends it, then as each `formaction` button does."""
        default = [*self.fields, *([self.submitter] if self.submitter else [])]
        return [Form(self.action, self.method, default, self.htmx)] + [
            Form(action, self.method, [*self.fields, *([(name, value)] if name else [])], htmx)
            for action, name, value, htmx in self.elsewhere
        ]

    def signature(self) -> tuple[str, str, tuple[str, ...]]:
        return (self.method, self.action, tuple(sorted({name for name, _ in self.fields})))


class PageParser(HTMLParser):
    """Collect links (a/area href, hx-get) and forms with their default values."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.htmx_links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: tuple[str, bool] | None = None
        self._options: list[tuple[str, bool]] = []
        self._option: dict[str, Any] | None = None
        self._textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v if v is not None else "" for k, v in attrs}
        if tag in ("a", "area") and a.get("href"):
            self.links.append(a["href"])
        if a.get("hx-get") and tag != "form":
            self.htmx_links.append(a["hx-get"])
        if tag == "form":
            self._open_form(a)
        elif self._form is not None and "disabled" not in a:
            self._form_field(tag, a)

    def _open_form(self, a: dict[str, str]) -> None:
        method = (a.get("method") or "get").lower()
        action = a.get("action") or a.get("hx-post") or a.get("hx-get") or ""
        if not a.get("method") and a.get("hx-post"):
            method = "post"
        self._form = Form(action, method, [], htmx=bool(a.get("hx-post") or a.get("hx-get")))

    def _form_field(self, tag: str, a: dict[str, str]) -> None:
        assert self._form is not None
        name = a.get("name", "")
        if tag == "input":
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image", "button", "reset"):
                self._submit(a, kind)
            elif kind in ("checkbox", "radio"):
                if name and "checked" in a:
                    self._form.fields.append((name, a.get("value") or "on"))
            elif kind != "file" and name:
                self._form.fields.append((name, a.get("value", "")))
        elif tag == "button":
            self._submit(a, a.get("type", "submit").lower())
        elif tag == "select" and name:
            self._select, self._options = (name, "multiple" in a), []
        elif tag == "option" and self._select is not None:
            self._option = {"value": a.get("value"), "selected": "selected" in a, "text": []}
        elif tag == "textarea" and name:
            self._textarea = (name, [])

    def _submit(self, a: dict[str, str], kind: str) -> None:
        if kind != "submit" or self._form is None:
            return
        name, value = a.get("name", ""), a.get("value", "")
        if a.get("formaction") or a.get("hx-post"):
            action = a.get("formaction") or a.get("hx-post", "")
            self._form.elsewhere.append((action, name, value, bool(a.get("hx-post"))))
        elif name and self._form.submitter is None:
            self._form.submitter = (name, value)
        elif name and (name, value) != self._form.submitter:
            # Another button of the same form (a figure's chip adjustments: "wounds:add",
            # "pinned:remove" ...): each is a request of its own, so each is submitted.
            self._form.elsewhere.append((self._form.action, name, value, self._form.htmx))

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option["text"].append(data)
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None:
            value = self._option["value"]
            text = "".join(self._option["text"]).strip()
            self._options.append((text if value is None else value, self._option["selected"]))
            self._option = None
        elif tag == "select" and self._select is not None:
            self._close_select()
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            self._form.fields.append((self._textarea[0], "".join(self._textarea[1])))
            self._textarea = None
        elif tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None

    def _close_select(self) -> None:
        assert self._select is not None and self._form is not None
        name, multiple = self._select
        if self._option is not None:  # an <option> closed by the next one or by </select>
            self.handle_endtag("option")
        chosen = [v for v, selected in self._options if selected]
        if not chosen and self._options and not multiple:
            chosen = [self._options[0][0]]
        self._form.fields += [(name, v) for v in (chosen if multiple else chosen[:1])]
        self._select = None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def json_links(data: Any) -> Iterable[str]:
    """Yield the same-site URLs a JSON answer names (DRF's hyperlinks, `next`, downloads)."""
    if isinstance(data, dict):
        for value in data.values():
            yield from json_links(value)
    elif isinstance(data, list):
        for value in data:
            yield from json_links(value)
    elif isinstance(data, str) and data.startswith(f"http://{HOST}/"):
        yield data


@dataclass(frozen=True)
class Failure:
    status: int | str
    method: str
    url: str
    actor: str
    state: str
    found_on: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.status} {self.method} {self.url} as {self.actor} [{self.state}]"
            f" (found on {self.found_on}): {self.detail}"
        )


def summary(exc: BaseException) -> str:
    """One line: the exception and the deepest frames in Muster's own code."""
    frames = [
        f"{f.filename.split('/wt/')[-1].split('/', 2)[-1]}:{f.lineno} {f.name}"
        for f in traceback.extract_tb(exc.__traceback__)
        if "/.venv/" not in f.filename and "site-packages" not in f.filename
    ]
    where = " <- ".join(reversed(frames[-3:]))
    return f"{type(exc).__name__}: {str(exc)[:300]} at {where}"


@dataclass
class Caps:
    """How much of each URL pattern to fetch (seeds are always fetched)."""

    objects_per_route: int = 40
    variants_per_object: int = 2
    #: False: submit a form once per action route, not once per object (the owner's crawl
    #: submits in every state; the others' check their permissions on one battle each).
    forms_per_object: bool = True
    #: Fetch the page a form redirects to, in the world the form changed, before rolling back.
    after_post: bool = True
    routes: dict[str, int] = field(default_factory=dict)  # a smaller cap for some route prefixes

    #: Print documents: the same code whatever the battle's state, and the slowest answers.
    pdf_objects: int = 2

    def objects_for(self, route: str) -> int:
        if route.endswith(".pdf"):
            return self.pdf_objects
        return next(
            (n for prefix, n in self.routes.items() if route.startswith(prefix)),
            self.objects_per_route,
        )


@dataclass
class Crawl:
    """One actor's crawl of the site from its seeds."""

    client: Client
    actor: str
    state_of: Callable[[str, dict[str, Any]], str]
    caps: Caps = field(default_factory=Caps)
    failures: list[Failure] = field(default_factory=list)
    fetched: int = 0
    submitted: int = 0
    seconds: float = 0.0
    _seen: set[tuple[str, bool]] = field(default_factory=set)
    _objects: dict[str, set[tuple[Any, ...]]] = field(default_factory=dict)
    _variants: Counter[tuple[str, tuple[Any, ...]]] = field(default_factory=Counter)
    _forms: set[tuple[str, str, tuple[str, ...]]] = field(default_factory=set)
    _queue: deque[tuple[str, str, bool]] = field(default_factory=deque)
    #: Seconds spent per (method, route): where to look when the crawl grows slow.
    timings: Counter[tuple[str, str]] = field(default_factory=Counter)

    def run(self, seeds: Iterable[str]) -> Crawl:
        started = time.perf_counter()
        for seed in seeds:
            self._enqueue(seed, "(seed)", seed=True)
        while self._queue:
            url, found_on, htmx = self._queue.popleft()
            self._visit(url, found_on, htmx)
        self.seconds += time.perf_counter() - started
        return self

    # --- what to fetch -----------------------------------------------------------------------

    def _enqueue(self, href: str, found_on: str, *, seed: bool = False, htmx: bool = False) -> None:
        url = self._same_site(href, found_on)
        if url is None or (url, htmx) in self._seen:
            return
        if not seed and not self._within_caps(url):
            return
        self._seen.add((url, htmx))
        self._queue.append((url, found_on, htmx))

    @staticmethod
    def _same_site(href: str, base: str) -> str | None:
        href = href.strip()
        if not href or href.startswith("#") or href.lower().startswith(SKIPPED_SCHEMES):
            return None
        parts = urlsplit(urljoin(f"http://{HOST}{base if base.startswith('/') else '/'}", href))
        if parts.scheme not in ("http", "https") or parts.netloc != HOST:
            return None
        if parts.path.startswith(SKIPPED_PREFIXES):
            return None
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def _within_caps(self, url: str) -> bool:
        route, args = route_of(url)
        objects = self._objects.setdefault(route, set())
        if args not in objects:
            if len(objects) >= self.caps.objects_for(route):
                return False
            objects.add(args)
        if self._variants[(route, args)] >= self.caps.variants_per_object:
            return False
        self._variants[(route, args)] += 1
        return True

    # --- fetching ----------------------------------------------------------------------------

    def _state(self, url: str) -> str:
        route, args = route_of(url)
        return self.state_of(route, dict(args))

    def _request(self, method: str, url: str, found_on: str, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            response = getattr(self.client, method)(url, **kwargs)
        except Exception as exc:  # a view's crash: the test client re-raises it
            self._fail("500", method.upper(), url, found_on, summary(exc))
            return None
        finally:
            self.timings[(method.upper(), route_of(url)[0])] += time.perf_counter() - started
        if response.status_code >= 500:
            self._fail(response.status_code, method.upper(), url, found_on, _body(response))
        return response

    def _fail(self, status: Any, method: str, url: str, found_on: str, detail: str) -> None:
        self.failures.append(
            Failure(status, method, url, self.actor, self._state(url), found_on, detail)
        )

    def _visit(self, url: str, found_on: str, htmx: bool) -> None:
        headers = {"HX-Request": "true"} if htmx else {}
        response = self._request("get", url, found_on, headers=headers)
        self.fetched += 1
        if response is None:
            return
        if response.status_code in (301, 302, 303, 307, 308) and "Location" in response:
            self._enqueue(response["Location"], url)
        self._read(url, response)

    def _read(self, url: str, response: Any) -> None:
        kind = response.get("Content-Type", "")
        if getattr(response, "streaming", False):
            return
        if kind.startswith("application/json"):
            try:
                data = json.loads(response.content)
            except ValueError:
                return
            for link in json_links(data):
                self._enqueue(link, url)
        elif kind.startswith("text/html"):
            parser = PageParser()
            parser.feed(response.content.decode(response.charset or "utf-8", "replace"))
            for link in parser.links:
                self._enqueue(link, url)
            for link in parser.htmx_links:
                self._enqueue(link, url, htmx=True)
            for form in parser.forms:
                for variant in form.variants():
                    self._form(url, variant)

    # --- forms -------------------------------------------------------------------------------

    def _form(self, page: str, form: Form) -> None:
        action = self._same_site(form.action or page, page)
        if action is None:
            return
        if form.method == "get":
            self._get_form(action, form, page)
            return
        path = action.split("?")[0]
        where = path if self.caps.forms_per_object else route_of(path)[0]
        signature = (form.method, where, form.signature()[2])
        if signature in self._forms:
            return
        self._forms.add(signature)
        self._post(action, form, page, htmx=False)
        if form.htmx and self.caps.forms_per_object:
            self._post(action, form, page, htmx=True)

    def _get_form(self, action: str, form: Form, page: str) -> None:
        path, _, query = action.partition("?")
        fields = [*parse_qsl(query, keep_blank_values=True), *form.fields]
        self._enqueue(f"{path}?{urlencode(fields)}" if fields else path, page)

    def _post(self, action: str, form: Form, page: str, *, htmx: bool) -> None:
        cookies = SimpleCookie(self.client.cookies.output(header="", sep="\n"))
        savepoint = transaction.savepoint()
        try:
            self._post_and_follow(action, form, page, htmx=htmx)
        finally:
            transaction.savepoint_rollback(savepoint)
            self.client.cookies = cookies

    def _post_and_follow(self, action: str, form: Form, page: str, *, htmx: bool) -> None:
        data: dict[str, list[str]] = {}
        for name, value in form.fields:
            data.setdefault(name, []).append(value)
        headers = {"HX-Request": "true"} if htmx else {}
        response = self._request("post", action, page, data=data, headers=headers)
        self.submitted += 1
        if response is None or htmx or not self.caps.after_post:
            return
        location = response.get("Location") if response.status_code in (302, 303) else None
        target = self._same_site(location, action) if location else None
        if target is not None:
            # The page the player lands on after the form, in the world the form changed (its
            # links are not followed: that world is about to be rolled back).
            self._request("get", target, f"after POST {action}")
            self.fetched += 1


def _body(response: Any) -> str:
    if getattr(response, "streaming", False):
        return "(streamed)"
    return response.content[:200].decode("utf-8", "replace").replace("\n", " ")


def route_of(url: str) -> tuple[str, tuple[Any, ...]]:
    """Return the URL's route pattern and its arguments (Resolver404: the path itself)."""
    path = url.split("?")[0]
    try:
        match = resolve(path)
    except Resolver404:
        return "<no route>", (path,)
    return match.route, tuple(sorted(match.kwargs.items())) + tuple(match.args)


def report(crawls: Iterable[Crawl]) -> str:
    """Every failure of every crawl, one a line, then the size of the crawl."""
    crawls = list(crawls)
    lines = [str(f) for c in crawls for f in c.failures]
    size = (
        f"{sum(c.fetched for c in crawls)} pages fetched, {sum(c.submitted for c in crawls)}"
        f" forms submitted in {sum(c.seconds for c in crawls):.1f} s"
    )
    slowest: Counter[tuple[str, str]] = Counter()
    for crawl in crawls:
        slowest.update(crawl.timings)
    costs = ", ".join(f"{m} {r or '/'} {t:.1f} s" for (m, r), t in slowest.most_common(6))
    return "\n".join([f"{len(lines)} server error(s); {size}; slowest: {costs}", *lines])


def clean(text: str) -> bool:
    """True when a report names no server error."""
    print(text.splitlines()[0])  # the crawl's size, shown with `pytest -s` or `-rP`
    return text.startswith("0 server error(s)")
