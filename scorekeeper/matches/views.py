"""Match pages: start a match, score it hand by hand, fix a hand, look back at the history."""

from __future__ import annotations

from functools import partial

import segno
from flask import Response, abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ..errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized, status_of
from ..games import GAMES, name_of
from ..records import keys, reads, writes
from ..records.reads import ID_LIMIT, Scored
from ..web import cookies, live, offline
from ..web.i18n import declared_text
from ..web.links import no_store, same_origin_path
from . import phones, present, queries
from .blueprint import bp
from .forms import ConfirmForm, HandForm, SeatsForm
from .present import (
    confirm_page,
    edit_values,
    hand_page,
    hands_page,
    record_from_request,
)
from .seats import new_match_page, seats_from_form, setup_page

RECENT = 10
OTHERS_IN_PLAY = 5  # the other tables' matches on the home page: the game buttons stay near the top
THEMES = ("auto", "light", "dark")
HISTORY_PAGE = 25  # matches a history page shows; older ones a tap away (keyset, no OFFSET)
WATCH_SECONDS = 25
HEARTBEAT_SECONDS = 10
WRITES = {
    f"matches.{name}"
    for name in ("record", "edit", "delete", "undo", "redo", "reopen", "finish", "setup", "remove", "share")
}
THEME_DAYS = 400
# A hidden field that is not what the page sent (a stale or altered form): say so, change nothing.
DAMAGED_FORM = _l(
    "This form came back changed (its hidden number was not one the page sent): nothing was changed. "
    "Check the form below and send it again."
)
SCORES_NOW = _l("This phone can now score the match.")


@bp.get("/")
def home():
    """This phone's matches in play, the others in play, a new match of any game; the latest
    results; matches set aside."""
    mine, others, idle, recent = queries.home_lists(RECENT, OTHERS_IN_PLAY, phones.phone_hash())
    return render_template(
        "matches/home.html",
        games=GAMES.values(),
        mine=mine,
        others=others,
        idle=idle,
        recent=recent,
        idle_days=queries.IDLE.days,
    )


@bp.post("/theme")
def theme():
    """Light, dark or as the phone says: remembered in a cookie, so it works without scripts."""
    choice = request.form.get("theme", "auto")
    answer = redirect(_back())
    cookies.keep(answer, "theme", choice if choice in THEMES else "auto", THEME_DAYS)
    return answer


@bp.route("/matches/new/<key>", methods=["GET", "POST"])
def new_match(key: str):
    """Seat the players, set the house rules, pick the first dealer."""
    game = GAMES.get(key) or abort(404)
    form = SeatsForm()
    if form.validate_on_submit():
        names, options, error = seats_from_form(game, request.form)
        if error is None:
            try:
                match = writes.create_match(key, names, options, draw_partners=form.draw_partners.data)
                phones.hold(match.id)
                return redirect(url_for("matches.show", match_id=match.id))
            except ServiceError as failed:
                error = failed
        return new_match_page(game, form, request.form, error), 422
    return new_match_page(game, form, MultiDict(), None)


@bp.app_template_filter("declared")
def declared(text: str | None) -> str:
    """A text the engine declares (the game's unit, its word for a hand...) in the page's language."""
    return declared_text(text)


bp.add_app_template_filter(name_of, "game_name")


@bp.app_template_filter("named")
def named(text: str | None, sides) -> str:
    """An engine text with its sides named by their players, as the pages show them."""
    return present.named(text, sides)


@bp.before_request
def keys_kept_in_the_session_move_to_the_phone():
    """Before anything checks who may write (the hook below): keys an older version kept in the
    session cookie, and the matches of a token this server did not sign, become this phone's holds."""
    phones.move_session_keys()
    phones.sign_an_older_token()


@bp.before_request
def only_the_table_writes():
    """Every page that changes a match needs a phone that holds it (the phone that started it, and
    the phones that opened its scorer link or typed its table code); other phones may watch."""
    if request.endpoint not in WRITES:
        return None
    try:
        # Held for the request: the session keeps only objects held elsewhere, and the view reads it next.
        g.writing = phones.authorize(request.view_args["match_id"])
    except (Unauthorized, Forbidden) as refused:
        return render_template(
            "matches/watching.html", match_id=request.view_args["match_id"], message=refused.message
        ), 403
    except ServiceError:
        abort(404)
    return None


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    """The scoreboard, the form for the next hand and the latest hands (read-only for a phone that
    does not score the match)."""
    writer = phones.may_score(match_id)  # first: it reads the match, and _load finds it read
    scored = _load(match_id)
    return hand_page(scored, HandForm(expected=scored.next_number), MultiDict(), {}, writer=writer)


@bp.get("/matches/<int:match_id>/watch")
def watch(match_id: int):
    """The match as the other phones see it: read-only, following the score live."""
    scored = _load(match_id)
    return hand_page(scored, HandForm(expected=scored.next_number), MultiDict(), {}, writer=False)


@bp.get("/matches/<int:match_id>/events")
def events(match_id: int):
    """Server-Sent Events: one `change` event once the match moves past the version the page shows."""
    # Or nothing within a short wait (the browser then asks again). The phone waits on the process's
    # live hub, holding no database connection; a page that names its version costs no query at all.
    seen = request.args.get("version", type=int)
    wait = min(max(request.args.get("wait", WATCH_SECONDS, type=int), 1), WATCH_SECONDS)
    if not 0 < match_id <= ID_LIMIT:
        abort(404)  # the live poller reads every watched id in one statement: none may break it
    if seen is None:
        seen = queries.version_of(match_id)  # and the connection goes back to the pool before the long wait
        if seen is None:
            abort(404)
    hub = current_app.extensions["live"]
    return Response(
        live.stream(hub, match_id, seen, wait, HEARTBEAT_SECONDS),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@bp.get("/matches/<int:match_id>/join")
def join(match_id: int):
    """The scorer link: this phone may now record and fix hands of the match. The link carries the
    table code (the Share page's) or the match's key (a script's, API.md); wrong ones are rate-limited."""
    # Either rides in the query string, which the access log leaves out.
    scored = _load(match_id)
    if "code" in request.args:
        refused = phones.code_refusal(scored.match, request.args["code"])
    else:
        try:
            keys.check_key(scored.match, request.args.get("key", ""))
            refused = None
        except ServiceError as error:
            refused = error
    if refused is not None:
        return render_template("matches/watching.html", match_id=match_id, message=refused.message), 403
    phones.hold(match_id)
    flash(str(SCORES_NOW))
    return no_store(redirect(url_for("matches.show", match_id=match_id)))


@bp.post("/matches/<int:match_id>/claim")
def claim(match_id: int):
    """A watching phone types the table code: it may now score the match too."""
    scored = _load(match_id)
    typed = request.form.get("code", "")
    refused = phones.code_refusal(scored.match, typed)
    if refused is not None:
        phones.refused_code(typed)
        return hand_page(
            scored, HandForm(expected=scored.next_number), MultiDict(), {}, refused.message, writer=False
        ), status_of(refused)
    phones.hold(match_id)
    flash(str(SCORES_NOW))
    return redirect(url_for("matches.show", match_id=match_id), 303)


@bp.get("/matches/<int:match_id>/share")
def share(match_id: int):
    """Links (and QR codes) for the other phones at the table: one to score, one to watch, at an
    address they can open (or why there is none, and how to make one); and the table code."""
    scored = _load(match_id)
    reach = phones.reach()
    code = phones.table_code(scored.match)
    scorer = reach.link(url_for("matches.join", match_id=match_id, code=code)) if code else None  # ?code=
    watcher = reach.link(url_for("matches.watch", match_id=match_id))
    codes = {} if reach.problem else {"scorer": qr_svg(scorer) if scorer else None, "watcher": qr_svg(watcher)}
    return no_store(
        render_template(
            "matches/share.html", s=scored, scorer=scorer, watcher=watcher, codes=codes, reach=reach, code=code
        )
    )


def qr_svg(text: str) -> str:
    """A QR code as inline SVG, drawn on the server (segno): no script, no other host."""
    return segno.make(text, error="m").svg_inline(scale=4, dark="#000", light="#fff", omitsize=True)


@bp.post("/matches/<int:match_id>/hands")
def record(match_id: int):
    """Record the next hand from the form; a field error re-renders it with the values kept."""
    scored = _load(match_id)
    form = HandForm()
    if not form.validate_on_submit():
        return hand_page(scored, HandForm(formdata=None), request.form, {}, str(DAMAGED_FORM)), 400
    try:
        raw = record_from_request(scored, request.form)
        writes.record_hand(
            scored,
            raw,
            expected=form.expected.data,
            entered_by="web",
            token=form.token.data or None,
            note=request.form.get("note", ""),
            receipt=offline.receipt(),
        )
    except ServiceError as error:
        # A number another phone took: the table's hand is offered as the next one, or dropped.
        taken = isinstance(error, Conflict) and "number" in error.fields
        return hand_page(
            reads.load(match_id), form, request.form, error.fields, error.message, writer=True, taken=taken
        ), status_of(error)
    return redirect(url_for("matches.show", match_id=match_id))


@bp.get("/matches/<int:match_id>/hands")
def hands(match_id: int):
    """Every hand of the match, newest first, a light page at a time (`?before=<number>`)."""
    writer = phones.may_score(match_id)
    scored = _load(match_id)
    return hands_page(scored, request.args.get("before", type=int), writer=writer)


@bp.route("/matches/<int:match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit(match_id: int, number: int):
    """Change a recorded hand; everything after it is replayed."""
    scored = _load(match_id, number)
    form = HandForm()
    if form.validate_on_submit():
        try:
            raw = record_from_request(scored, request.form, number)
            writes.edit_hand(scored, number, raw, note=request.form.get("note", ""), receipt=offline.receipt())
            # Translators: %(word)s is the game's word for one record, capitalized (Hand, Round, Game)
            flash(
                _("%(word)s %(number)s changed; every total after it follows.", word=_hand_word(scored), number=number)
            )
            return redirect(url_for("matches.show", match_id=match_id))
        except ServiceError as error:
            return hand_page(
                reads.load(match_id), form, request.form, error.fields, error.message, editing=number, writer=True
            ), status_of(error)
    if request.method == "POST":
        return hand_page(scored, HandForm(formdata=None), request.form, {}, str(DAMAGED_FORM), editing=number), 400
    values = edit_values(scored, number)
    return hand_page(scored, form, values, {}, editing=number, writer=True)


@bp.route("/matches/<int:match_id>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete(match_id: int, number: int):
    """Ask once, then delete a hand; the later hands move up."""
    scored = _load(match_id, number)
    form = ConfirmForm()
    if form.validate_on_submit():
        # Translators: %(word)s is the game's word for one record, capitalized (Hand, Round, Game)
        done = _("%(word)s %(number)s deleted.", word=_hand_word(scored), number=number)
        return _change(scored, partial(writes.delete_hand, number=number), done)
    return confirm_page(scored, form, "delete", number)


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int):
    """Take back the last hand (or, on a match the table finished, the finish); it can be put back once."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    scored = _load(match_id)
    if scored.match.called:
        return _change(
            scored, partial(writes.reopen_match, receipt=offline.receipt()), _("Finish taken back: play on.")
        )
    number = scored.count
    record = scored.replay.records[-1] if number else None
    # Translators: %(word)s is the game's word for one record, capitalized (Hand, Round, Game)
    done = _("%(word)s %(number)s taken back.", word=_hand_word(scored), number=number)
    if _attempt(scored, partial(writes.undo_last, expected=form.expected.data, receipt=offline.receipt()), done):
        session["undone"] = {"match": match_id, "number": number, "record": record}
    return redirect(url_for("matches.show", match_id=match_id))


@bp.post("/matches/<int:match_id>/redo")
def redo(match_id: int):
    """Put back the hand just taken back, once, if nothing was recorded since."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    undone = session.pop("undone", None)
    if not undone or undone.get("match") != match_id:
        flash(_("There is nothing to put back."), "error")
        return redirect(url_for("matches.show", match_id=match_id))
    number = undone["number"]
    put_back = partial(writes.record_hand, raw=undone["record"], expected=number, entered_by="web")
    scored = _load(match_id)
    # Translators: %(word)s is the game's word for one record, capitalized (Hand, Round, Game)
    return _change(scored, put_back, _("%(word)s %(number)s put back.", word=_hand_word(scored), number=number))


@bp.post("/matches/<int:match_id>/reopen")
def reopen(match_id: int):
    """Take back the table's finish: play goes on."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    return _change(_load(match_id), writes.reopen_match, _("Match reopened: play on."))


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int):
    """The same table again, the deal moved on."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    scored = _load(match_id)
    try:
        match = writes.rematch(scored)
        phones.hold(match.id)
    except ServiceError as error:
        flash(present.named(error.message, scored.match), "error")
        return redirect(url_for("matches.show", match_id=match_id))
    flash(_("A new match at the same table."))
    return redirect(url_for("matches.show", match_id=match.id))


@bp.route("/matches/<int:match_id>/setup", methods=["GET", "POST"])
def setup(match_id: int):
    """Fix the set-up of a match: names and seats, first dealer, house rules; every hand replayed."""
    scored = _load(match_id)
    form = SeatsForm()
    if form.validate_on_submit():
        names, options, error = seats_from_form(scored.game, request.form)
        if error is None:
            try:
                writes.edit_setup(scored, names, options)
                # Translators: %(word)s is the game's word for one record (hand, round, game)
                flash(
                    _("Set-up changed; every %(word)s was worked out again.", word=declared_text(scored.game.hand_word))
                )
                return redirect(url_for("matches.show", match_id=match_id))
            except ServiceError as failed:
                error = failed
        return setup_page(reads.load(match_id), form, request.form, error), status_of(error)
    return setup_page(scored, form, None, None)


@bp.route("/matches/<int:match_id>/remove", methods=["GET", "POST"])
def remove(match_id: int):
    """Ask once, showing the match, then delete it with its hands."""
    scored = _load(match_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            writes.delete_match(scored.match)
        except ServiceError as error:
            flash(present.named(error.message, scored.match), "error")
            return redirect(url_for("matches.show", match_id=match_id))
        flash(_("%(game)s #%(id)s deleted.", game=scored.game.name, id=match_id))
        return redirect(url_for("matches.home"))
    return confirm_page(scored, form, "remove")


@bp.route("/matches/<int:match_id>/finish", methods=["GET", "POST"])
def finish(match_id: int):
    """The table calls time on a game with no natural end."""
    scored = _load(match_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        return _change(scored, partial(writes.finish_match, receipt=offline.receipt()), _("Match finished."))
    return confirm_page(scored, form, "finish")


@bp.get("/matches")
def history():
    """Every match, filtered by game and by player."""
    game = request.args.get("game") or None
    player = request.args.get("player", type=int)
    if player is not None and not 0 < player <= ID_LIMIT:
        player = None  # no such player: the whole history, not a database overflow
    before = request.args.get("before", type=int)
    if before is not None and not 0 < before <= ID_LIMIT:
        before = None
    game = game if game in GAMES else None
    found = queries.page(game=game, player=player, before=before, limit=HISTORY_PAGE + 1)
    older = found[HISTORY_PAGE - 1].id if len(found) > HISTORY_PAGE else None
    players = queries.filter_players(player)
    return render_template(
        "matches/history.html",
        matches=found[:HISTORY_PAGE],
        games=GAMES,
        players=players,
        game=game,
        player=player,
        older=older,
        paged=before is not None,
    )


def _back() -> str:
    """Where to go after a setting: the page it came from, if it is one of ours."""
    target = request.form.get("next", "")
    return target if same_origin_path(target) else url_for("matches.home")


def _attempt(scored: Scored, write, done: str) -> bool:
    """Run `write` on the match as read and say how it went in a flash (a refusal with its sides
    named, the match read afresh). False if refused."""
    match_id = scored.match.id
    try:
        write(scored)
    except NotFound:
        abort(404)
    except ServiceError as error:
        flash(present.named(error.message, reads.get_match(match_id)), "error")
        return False
    flash(done)
    return True


def _change(scored: Scored, write, done: str):
    """Run `write` as `_attempt` does, then back to the match."""
    match_id = scored.match.id
    _attempt(scored, write, done)
    return redirect(url_for("matches.show", match_id=match_id))


def _hand_word(scored: Scored) -> str:
    """The game's word for one record, capitalized, in the page's language: "Hand", "Round"."""
    return declared_text(scored.game.hand_word).capitalize()


def _load(match_id: int, number: int | None = None) -> Scored:
    """The match as read, or the 404 page (also for a hand number it does not have)."""
    try:
        match = reads.get_match(match_id)
    except NotFound:
        abort(404)
    scored = reads.score(match)
    if number is not None and not 1 <= number <= scored.count:
        abort(404)
    return scored
