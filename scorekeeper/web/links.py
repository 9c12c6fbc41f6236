"""Links for the templates, each built once: a page's navigation and list links are the same on
every request, and building one costs more than the rest of its line of HTML."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from flask import make_response, request, url_for

KEPT = 4096  # links remembered; past that the memory starts over (a history visits many match ids)
_built: dict[tuple, str] = {}
_PLAIN = (str, int, type(None))  # not bool: True and 1 are one dict key but different links


def remembered_url_for(endpoint: str, **values) -> str:
    """url_for, remembered per script root for a path of plain values (not for an external URL,
    whose host comes from the request, nor for an endpoint relative to the request's blueprint)."""
    if endpoint.startswith(".") or any(
        name.startswith("_") or type(value) not in _PLAIN for name, value in values.items()
    ):
        return url_for(endpoint, **values)
    key = (request.script_root, endpoint, *sorted(values.items()))
    link = _built.get(key)
    if link is None:
        if len(_built) >= KEPT:
            _built.clear()
        link = _built[key] = url_for(endpoint, **values)
    return link


HOLE = 7_070_707_070_707  # where each row's own number goes in a link made once for a page


def numbered_links(endpoint: str, slot: str, **values) -> Callable[[int], str]:
    """url_for(endpoint, **values, <slot>=n) for the many n of one page at the cost of a single
    url_for: a list of hands links each hand, and building a link costs more than its line of HTML."""
    parts = remembered_url_for(endpoint, **values, **{slot: HOLE}).split(str(HOLE))
    if len(parts) != 2:  # the hole's digits in another value too: each link built in full
        return lambda number: remembered_url_for(endpoint, **values, **{slot: number})
    head, tail = parts
    return lambda number: f"{head}{number}{tail}"


def same_origin_path(target: str) -> bool:
    r"""Whether `target` is a path on this site and nothing a browser could read as another host:
    browsers drop tabs and newlines from a URL and read a backslash as a slash, so "/\t/evil.example"
    and "/\evil.example" both lead away."""
    if not target.startswith("/") or not target.isprintable() or "\\" in target:
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc and not target.startswith("//")


def no_store(page):
    """A page that shows a match's key: no browser or proxy keeps a copy of it."""
    answer = make_response(page)
    answer.headers["Cache-Control"] = "no-store"
    return answer
