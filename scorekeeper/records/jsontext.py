"""JSON in and out, fast: the API's answers and the database's JSON columns (records, states,
reasons) go through orjson, several times quicker than the standard library on a long match's 600
hands. What orjson cannot write (a whole number past 64 bits, a key that is not text) or read (NaN)
goes through the standard library; the engine takes no whole number past 2**53, so what is stored
comes back as it went in."""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider


def dumps(value: Any) -> str:
    """Compact JSON text for a database column."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # a whole number past 64 bits, a key that is not a string
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """A database column's JSON text, read."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN and the like, which the standard library wrote and reads
        return json.loads(text)


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with answers written by orjson. Dates, dataclasses and the rest go to Flask's
    own `default`, so an answer says the same as Flask's provider would (UTF-8 instead of \\u
    escapes), and JSON already written (`orjson.Fragment`, a long match's stored hands) goes in as
    it is. Requests are still read by the standard library, which keeps every number exact."""

    _OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE

    def response(self, *args: Any, **kwargs: Any):
        value = self._prepare_response_obj(args, kwargs)
        options = self._OPTIONS
        if (self.compact is None and self._app.debug) or self.compact is False:
            options |= orjson.OPT_INDENT_2
        if self.sort_keys:
            options |= orjson.OPT_SORT_KEYS
        try:
            text = orjson.dumps(value, default=self.default, option=options)
        except TypeError:  # what only the standard library writes (a whole number past 64 bits)
            return super().response(*args, **kwargs)
        return self._app.response_class(text, mimetype=self.mimetype)
