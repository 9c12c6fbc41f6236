"""ASVS level 1 as it applies (issue 38, item 7): behind HTTPS every cookie of ours is a `__Host-`
one (a phone's older plain cookie still read, so it keeps its matches); a Permissions-Policy that
denies what the app does not use; Cross-Origin-Resource-Policy on every answer."""

from __future__ import annotations

from scorekeeper import create_app
from tests.conftest import Actions, make_app

FOUR = ["Ann", "Bo", "Cy", "Di"]
HTTPS = "https://localhost"


def set_cookies(answer) -> list[str]:
    return answer.headers.getlist("Set-Cookie")


def test_behind_https_every_cookie_is_a_host_cookie(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'https.sqlite'}", SCOREKEEPER_HTTPS=True)
    client = app.test_client()
    started = client.post("/api/v1/matches", json={"game": "court_piece", "players": FOUR}, base_url=HTTPS).json
    joined = client.get(f"/matches/{started['id']}/join?key={started['key']}", base_url=HTTPS)
    theme = client.post("/theme", data={"theme": "dark"}, base_url=HTTPS)
    language = client.post("/language", data={"lang": "es"}, base_url=HTTPS)
    made = set_cookies(joined) + set_cookies(theme) + set_cookies(language)
    names = {cookie.split("=", 1)[0] for cookie in made}
    assert names == {"__Host-phone", "__Host-session", "__Host-theme", "__Host-lang"}, made
    for cookie in made:
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie, cookie
    page = client.get(f"/matches/{started['id']}", base_url=HTTPS).get_data(as_text=True)
    assert 'lang="es"' in page and 'name="expected"' in page  # in Spanish, and this phone scores
    assert 'class="theme-dark"' in page


def test_a_phone_that_scored_before_https_still_scores_after(tmp_path):
    url = f"sqlite:///{tmp_path / 'moved.sqlite'}"
    before = make_app(url).test_client()
    match_id = Actions(before).start("court_piece", FOUR)
    phone = before.get_cookie("phone").value
    after = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SCOREKEEPER_HTTPS": True,
        }
    ).test_client()  # the same database, now behind HTTPS
    after.set_cookie("phone", phone, domain="localhost")
    answer = after.post(
        f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "8", "expected": "1"}, base_url=HTTPS
    )
    assert answer.status_code == 302
    assert any(cookie.startswith("__Host-phone=" + phone) for cookie in set_cookies(answer))


def test_plain_http_keeps_the_plain_names(client):
    Actions(client).start("court_piece", FOUR)
    assert client.get_cookie("phone") is not None and client.get_cookie("__Host-phone") is None


def test_every_answer_denies_what_the_app_does_not_use_and_loads_in_no_other_site(client):
    for path in ("/", "/rules/", "/static/app.css", "/api/v1/games", "/no-such-page"):
        headers = client.get(path).headers
        policy = dict(part.strip().split("=", 1) for part in headers["Permissions-Policy"].split(","))
        assert {policy[name] for name in ("camera", "microphone", "geolocation", "payment", "usb")} == {"()"}, path
        assert policy["screen-wake-lock"] == "(self)" and policy["clipboard-write"] == "(self)", path
        assert headers["Cross-Origin-Resource-Policy"] == "same-origin", path
