"""Links for the templates, each built once: a page's navigation and list links are the same on
every request, and building one costs more than the rest of its line of HTML."""

from __future__ import annotations

from flask import request, url_for

KEPT = 4096  # links remembered; past that the memory starts over (a history visits many match ids)
_built: dict[tuple, str] = {}
_PLAIN = (str, int, type(None))  # not bool: True and 1 are one dict key but different links


def remembered_url_for(endpoint: str, **values) -> str:
    """url_for, remembered per script root for a path of plain values (not for an external URL,
    whose host comes from the request, nor for an endpoint relative to the request's blueprint)."""
    if endpoint.startswith(".") or any(name.startswith("_") or type(value) not in _PLAIN
                                       for name, value in values.items()):
        return url_for(endpoint, **values)
    key = (request.script_root, endpoint, *sorted(values.items()))
    link = _built.get(key)
    if link is None:
        if len(_built) >= KEPT:
            _built.clear()
        link = _built[key] = url_for(endpoint, **values)
    return link
