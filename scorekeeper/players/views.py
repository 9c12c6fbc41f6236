"""Player pages: who has played; each player's story per game (record, rating, streaks, the
game's own figures, charts over time) and their matches; and, where the host set a password, the
host's page to rename or merge players."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta
from functools import wraps

from flask import abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import delete

from ..errors import ServiceError, status_of
from ..extensions import db
from ..games import GAMES
from ..history import charts
from ..history import queries as history
from ..matches import queries as match_queries
from ..models import HostSignIn, now_utc
from ..records.stories.stats import declared, lower_is_better, shown_statistics
from ..web.links import no_store
from . import admin, queries
from .blueprint import bp
from .forms import MergeForm, RenameForm, SignInForm, SignOutForm, host_forms

RECENT = 15  # the latest matches a player page lists (the rest: "In the history")
PARTNERS = 60  # the players a player page offers for head to head (the first 5 as links)


PAGE = 50  # players a page lists; the rest a tap away (a keyset on the folded name, no OFFSET)


@bp.get("/")
def index():
    """Everybody who has sat at a table, by name, with how many matches they played: a page at a
    time, from `?after=<folded name>`."""
    after = request.args.get("after", "")[:200]
    counts = queries.players_page(after, PAGE + 1)
    more = counts[PAGE - 1][0].key if len(counts) > PAGE else None
    return render_template(
        "players/index.html", counts=counts[:PAGE], more=more, paged=bool(after), host=bool(host_password())
    )


@bp.get("/<int:player_id>")
def show(player_id: int):
    """A player's story per game (won, shared, lost, drawn; rating and streaks), their most played
    game over time, who they played with most, and their latest matches."""
    player = queries.player(player_id) or abort(404)
    stories = history.stories_of(player.id)
    most = max(stories.values(), key=lambda g: (g.story.number if g.story else 0, g.game), default=None)
    chart = None
    if most and most.story:
        chart = charts.results(history.story_points(player.id, most.game, most.story.number))
    latest = match_queries.latest_for(player.id, RECENT)
    return render_template(
        "players/show.html",
        player=player,
        matches=latest,
        stories=stories,
        chart=chart,
        chart_game=most.game if most else None,
        partners=history.played_with(player.id, PARTNERS),
    )


@bp.get("/<int:player_id>/games/<game>")
def story(player_id: int, game: str):
    """A player's story in one game: every figure the history keeps, the game's own, and two charts."""
    player = queries.player(player_id) or abort(404)
    if game not in GAMES:
        abort(404)
    told = history.stories_of(player.id).get(game) or abort(404)
    points = history.story_points(player.id, game, told.story.number) if told.story else []
    kept = told.story.kept if told.story else {}
    return render_template(
        "players/story.html",
        player=player,
        game=GAMES[game],
        g=told,
        story=told.story,
        results=charts.results(points),
        rating_chart=charts.rating(points),
        own=shown_statistics(declared(GAMES[game]), kept),
        lowest=lower_is_better(GAMES[game]),
    )


# -- the host's page: rename and merge players, only where the host set a password ------------------

HOST = "host"  # the session's sign-in flag
WRONG_PASSWORD = _l("That is not the host password.")
SIGN_IN_FIRST = _l("Sign in as the host first: nothing was changed.")


def host_password() -> str:
    return current_app.config["SCOREKEEPER_ADMIN_PASSWORD"] or ""


SIGN_IN_HOURS = 12  # a club night; then the host signs in again


def sign_in_hash(token: str) -> str:
    """How the server keeps a sign-in: the hash of its random token and of the password (a new
    password signs everybody out); the session cookie holds only the token."""
    return hashlib.sha256(f"{token}\n{host_password()}".encode()).hexdigest()


def password_matches(given: str) -> bool:
    """Compared in constant time whatever its length: as digests of one size."""
    expected = hashlib.sha256(host_password().encode()).digest()
    return hmac.compare_digest(hashlib.sha256(given.encode()).digest(), expected)


def signed_in() -> bool:
    """Whether this session's sign-in is one the server still keeps (not signed out, not too old)."""
    token = session.get(HOST)
    if not isinstance(token, str):
        return False
    kept = db.session.get(HostSignIn, sign_in_hash(token))
    return kept is not None and now_utc() - kept.created < timedelta(hours=SIGN_IN_HOURS)


def host_only(view):
    """No such page where the host set no password; never kept by a browser or a proxy."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        if not host_password():
            abort(404)
        return no_store(view(*args, **kwargs))

    return wrapped


def sign_in_page(form: SignInForm, error: str | None = None, status: int = 200):
    return render_template("players/sign_in.html", form=form, error=error), status


def host_page(rename: RenameForm, merge: MergeForm, errors: dict[str, str] | None = None):
    return render_template("players/host.html", rename=rename, merge=merge, errors=errors or {}, sign_out=SignOutForm())


@bp.get("/host")
@host_only
def host():
    """The host's page: sign in, then rename a player or merge two."""
    if not signed_in():
        return sign_in_page(SignInForm())
    return host_page(*host_forms(queries.everybody()))


@bp.post("/host/sign-in")
@host_only
def sign_in():
    """Check the host password and remember the sign-in in the signed session."""
    form = SignInForm()
    if not (form.validate_on_submit() and password_matches(form.password.data or "")):
        return sign_in_page(form, str(WRONG_PASSWORD), 403)
    token = secrets.token_urlsafe(32)
    db.session.add(HostSignIn(token_hash=sign_in_hash(token)))
    db.session.commit()
    session[HOST] = token
    flash(_("Signed in as the host."))
    return redirect(url_for("players.host"))


@bp.post("/host/sign-out")
@host_only
def sign_out():
    """End the host's sign-in: for this phone and for every copy of its cookie."""
    if SignOutForm().validate_on_submit():
        token = session.pop(HOST, None)
        if isinstance(token, str):
            db.session.execute(delete(HostSignIn).where(HostSignIn.token_hash == sign_in_hash(token)))
            db.session.commit()
        flash(_("Signed out."))
    return redirect(url_for("players.index"))


@bp.post("/host/rename")
@host_only
def rename():
    """Rename a player in every match."""
    return host_change("rename", lambda form: admin.rename(form.player.data or "", form.new_name.data or ""))


@bp.post("/host/merge")
@host_only
def merge():
    """Merge two players who are the same person."""
    return host_change("merge", lambda form: admin.merge(form.source.data or "", form.target.data or ""))


def host_change(kind: str, change):
    """Run a host's `change` with its posted form: its sentence flashed, or its refusal on the form."""
    if not signed_in():
        return sign_in_page(SignInForm(formdata=None), str(SIGN_IN_FIRST), 403)
    forms = dict(zip(("rename", "merge"), host_forms(queries.everybody())))
    if not forms[kind].validate_on_submit():
        abort(400)
    try:
        flash(change(forms[kind]))
    except ServiceError as refused:
        db.session.rollback()
        return host_page(**forms, errors={kind: refused.message}), status_of(refused)
    return redirect(url_for("players.host"))
