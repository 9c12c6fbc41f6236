"""The history pages: two players together, game nights (a night's page, its big screen live),
exports of any list, a match's printable score sheet, and a match's chances before its first hand."""

from __future__ import annotations

import hashlib

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import StringField

from ..errors import NotFound
from ..extensions import db
from ..games import GAMES
from ..games.sheet import labels as sheet_labels
from ..games.sheet import lines as sheet_lines
from ..matches.present import SideNames, own_board
from ..models import IN_PROGRESS, Night, now_utc
from ..records import reads
from ..records.reads import ID_LIMIT
from ..records.stories.stats import display
from ..web.links import numbered_links
from . import exports, nights, queries
from .chances import match_chances
from .nights import NAME_LIMIT

PAGE = 15  # matches a list of the history's shows (its tallies come first); older ones a tap away (keyset)
OTHERS = 60  # the players a head-to-head page offers to compare with (the first 12 as links)
NIGHTS_PAGE = 30
SCREEN_MATCHES = 12  # boards on a big screen: the latest moved of the night's matches in play (a TV holds 12)
SCREEN_FINISHED = 8  # and the latest finished of the night, fewer as more boards take the screen
SCREEN_STANDINGS = 12  # the night's leaders (the night's page has everybody)
WATCH_SECONDS = 25
HEARTBEAT_SECONDS = 10

bp = Blueprint("history", "scorekeeper.history")
bp.add_app_template_global(match_chances, "match_chances")
bp.add_app_template_global(display, "rating")


@bp.app_template_filter("amount")
def amount(value: float, unit: str) -> str:
    """A signed amount in the game's unit: "+1 court", "+0.5 courts", "-3 points"."""
    shown = f"{value:+d}" if isinstance(value, int) else f"{value:+.1f}"
    return f"{shown} {unit[:-1] if abs(value) == 1 and unit.endswith('s') else unit}"


def _id(name: str) -> int | None:
    """A whole-number argument that can be an id (None: missing, or no id any database holds)."""
    value = request.args.get(name, type=int)
    return value if value is not None and 0 < value <= ID_LIMIT else None


# -- two players ------------------------------------------------------------------------------------


@bp.get("/head-to-head")
def head_to_head():
    """Two players (`?a=<id>&b=<id>`, `b` chosen from those `a` played with): their matches against each other and as
    partners, per game, and the matches they sat in together."""
    one, other = _id("a"), _id("b")
    if one is None:
        abort(404)
    return _head_to_head_page(one, None if other == one else other)


def _head_to_head_page(one: int, other: int | None):
    names = queries.players([one] + ([other] if other else []))
    if one not in names or (other and other not in names):
        abort(404)
    before = _id("before")
    together = queries.matches_together(one, other, before, PAGE + 1) if other else []
    older = together[PAGE - 1].id if len(together) > PAGE else None
    return render_template(
        "history/head_to_head.html",
        one=one,
        other=other,
        names=names,
        pairs=queries.pair(one, other) if other else [],
        matches=together[:PAGE],
        older=older,
        paged=before is not None,
        choices=queries.played_with(one, OTHERS),
        with_other=numbered_links("history.head_to_head", "b", a=one),
    )


# -- game nights -------------------------------------------------------------------------------------


class NightNameForm(FlaskForm):
    name = StringField(_l("Name the night"), render_kw={"maxlength": NAME_LIMIT, "autocomplete": "off"})


@bp.get("/nights")
def nights_list():
    """The game nights, latest first, a page at a time (`?before=<night>`)."""
    before = _night_arg("before")
    found = queries.nights_page(before, NIGHTS_PAGE + 1)
    older = found[NIGHTS_PAGE - 1][0] if len(found) > NIGHTS_PAGE else None
    return render_template(
        "history/nights.html",
        nights=found[:NIGHTS_PAGE],
        older=older,
        paged=before is not None,
        title=nights.title,
        tonight=_tonight(),
    )


def _night_arg(name: str) -> int | None:
    """A night's number from the query string (None: missing, or no date)."""
    value = request.args.get(name, type=int)
    return value if value is not None and nights.day_of(value) is not None else None


def _tonight() -> int:
    return nights.night_of(now_utc(), nights.zone(current_app.config))


@bp.get("/nights/tonight")
def tonight():
    return redirect(url_for("history.night", night=_tonight()))


def _night_or_404(night: int) -> int:
    if nights.day_of(night) is None:
        abort(404)
    return night


@bp.get("/nights/<int:night>")
def night(night: int):
    """A night: its standings across its games, and its matches."""
    _night_or_404(night)
    return _night_page(night, NightNameForm(formdata=None), None, 200)


def _night_page(night: int, form: NightNameForm, error: str | None, status: int):
    before = _id("before")
    found = queries.night_matches(night, before, PAGE + 1)
    older = found[PAGE - 1].id if len(found) > PAGE else None
    name = queries.night_name(night)
    if form.name.data is None:
        form.name.data = name or ""
    return render_template(
        "history/night.html",
        night=night,
        name=name,
        title=nights.title(night),
        span=nights.span(night),
        standings=queries.night_standings(night) if not before else None,
        matches=found[:PAGE],
        older=older,
        paged=before is not None,
        form=form,
        error=error,
    ), status


@bp.post("/nights/<int:night>/name")
def name_night(night: int):
    """Name the night (any phone at the club may: it changes no score); an empty name takes it back."""
    _night_or_404(night)
    form = NightNameForm()
    if not form.validate_on_submit():
        abort(400)
    given = " ".join((form.name.data or "").split())
    if len(given) > NAME_LIMIT or not given.isprintable():
        too_long = ngettext(
            "A night's name can be %(num)d printable character at most.",
            "A night's name can be %(num)d printable characters at most.",
            NAME_LIMIT,
        )
        return _night_page(night, form, too_long, 422)
    held = db.session.get(Night, night)
    if given and held:
        held.name = given
    elif given:
        db.session.add(Night(id=night, name=given))
    elif held:
        db.session.delete(held)
    db.session.commit()
    flash(_("The night is called “%(name)s”.", name=given) if given else _("The night is called by its date again."))
    return redirect(url_for("history.night", night=night))


@bp.get("/nights/<int:night>/screen")
def screen(night: int):
    """Every match of the night for a big screen: the boards of those in play, the standings, the
    latest finished where the boards leave room; the page reloads when any of them changes (watch.js;
    without scripts, every 30 s)."""
    _night_or_404(night)
    rows = queries.night_rows(night)  # one index range: a night holds tens of matches, not the club's all
    playing = sorted((row for row in rows if row.status == IN_PROGRESS), key=lambda row: row.updated, reverse=True)
    # The latest moved, shown in the order they started: a table's board keeps its place on the TV.
    shown = sorted(row.id for row in playing[:SCREEN_MATCHES])
    boards = [board for match in queries.in_play(shown) if (board := nights.board_of(match))]
    room = max(0, SCREEN_FINISHED - len(boards))
    done = [row.id for row in reversed(rows) if row.status != IN_PROGRESS][:room]
    return render_template(
        "history/screen.html",
        night=night,
        title=nights.title(night),
        name=queries.night_name(night),
        boards=boards,
        standings=queries.night_standings(night)[:SCREEN_STANDINGS],
        finished=queries.summaries_of(done),
        seen=seen_digest({row.id: row.version for row in rows}),
        more=max(0, len(rows) - len(boards) - len(done)),
    )


def seen_digest(versions: dict[int, int]) -> str:
    """What a big screen shows, in a few characters: its matches and their versions."""
    text = ",".join(f"{match_id}:{version}" for match_id, version in sorted(versions.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@bp.get("/nights/<int:night>/events")
def night_events(night: int):
    """Server-Sent Events: one `change` event once any of the night's matches moves, or a match
    joins the night, past what the screen shows (`?seen=<digest>`); else nothing within a short wait."""
    _night_or_404(night)
    seen = request.args.get("seen", "")[:64]
    versions = queries.night_versions(night)
    db.session.close()  # the connection goes back to the pool before the long wait
    hub = current_app.extensions["live"]
    changed = seen_digest(versions) != seen
    stream = nights.stream(hub, versions, changed, WATCH_SECONDS, HEARTBEAT_SECONDS)
    return Response(
        stream, mimetype="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


# -- exports ------------------------------------------------------------------------------------------


@bp.get("/export/<what>.<kind>")
def export(what: str, kind: str):
    """A list's results, hands or (a night's) standings as CSV or JSON (`?game=`, `?player=` once or
    more, `?night=`, `?match=`): the files and their columns are exports.py's."""
    selection = _export_selection()
    if kind not in exports.FORMATS or not exports.offered(what, selection):
        abort(404)
    mimetype, write = exports.FORMATS[kind]
    return Response(
        stream_with_context(write(what, selection)),
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{exports.filename(what, selection, kind)}"'},
    )


def _export_selection() -> exports.Selection:
    """The list an export is of, from its filters: 404 for a game not scored here, or a player,
    night or match that cannot be one."""
    game = request.args.get("game") or None
    players = [_as_id(text) for text in request.args.getlist("player") if text]  # empty: no filter, as for the others
    night, match = _night_arg("night"), _id("match")
    malformed = (
        (game is not None and game not in GAMES)
        or None in players
        or (request.args.get("night") and night is None)
        or (request.args.get("match") and match is None)
    )
    if malformed:
        abort(404)
    return exports.Selection(game, tuple(sorted(set(players))), night, match)


def _as_id(text: str) -> int | None:
    """A player's id as a query string gives it (None: no id any database holds). ASCII digits only,
    and few of them: "²" is a digit to Python but not to int(), and 5,000 digits are past its limit."""
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= len(str(ID_LIMIT)) else 0
    return value if 0 < value <= ID_LIMIT else None


# -- a match's score sheet ------------------------------------------------------------------------------


@bp.get("/matches/<int:match_id>/sheet")
def sheet(match_id: int):
    """A match's score sheet to print: its own board and every hand, with each side's running total
    in each kind of point the game keeps (games/sheet.py), read from the states stored after the hands."""
    try:
        scored = reads.load(match_id)
    except NotFound:
        abort(404)
    side_names = SideNames(scored.sides)
    own = own_board(scored.game)
    return render_template(
        "history/sheet.html",
        s=scored,
        side_names=side_names,
        lines=_sheet_rows(scored),
        columns=sheet_labels(scored.game),
        board=scored.game.board(scored.state),
        own_board=own,
        public_state=scored.game.public_state(scored.state) if own else None,
    )


def _sheet_rows(scored: reads.Scored) -> list[dict]:
    """The sheet's lines, each hand's with its reasons and note. The totals come from the states stored
    after the hands (one query reads them all), the last hand's as the board shows it (a match called over)."""
    results = list(scored.replay.results)
    notes = reads.notes(scored.match, range(1, scored.count + 1))
    states = [result.state for result in results[:-1]] + [scored.state] if results else []
    hands = zip(states, (result.changes for result in results))
    return [
        {
            "line": line,
            "reasons": [reason.text for reason in results[line.number - 1].reasons] if line.number else [],
            "note": notes.get(line.number),
        }
        for line in sheet_lines(scored.game, scored.replay.start, hands)
    ]
