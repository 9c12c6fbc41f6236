"""The catalogs stay whole (issue 25): each language's catalog holds exactly the texts the code marks
today, every one translated, none fuzzy, each keeping its placeholders. When this fails, run
`make catalogs` and translate what it added (README "Translations")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from babel.messages.plurals import get_plural

from scorekeeper.web.i18n import DOMAIN, LANGUAGES, SPOKEN, TRANSLATIONS

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
CATALOGS = sorted(TRANSLATIONS.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


@pytest.fixture(scope="module")
def marked(tmp_path_factory) -> dict[tuple[str | None, str], polib.POEntry]:
    """Every text the code marks today, as `make catalogs` extracts it."""
    pot = tmp_path_factory.mktemp("catalogs") / "messages.pot"
    subprocess.run(
        [str(ROOT / "scripts/catalogs.sh"), "extract", str(pot)],
        check=True,
        cwd=ROOT,
        env={"BIN": str(Path(sys.executable).parent), "PATH": "/usr/bin:/bin"},
    )
    return {(entry.msgctxt, entry.msgid): entry for entry in polib.pofile(str(pot))}


def language_of(path: Path) -> str:
    return path.parent.parent.name


def test_every_catalog_is_a_language_the_games_are_played_in_and_is_offered():
    found = [language_of(path) for path in CATALOGS]
    assert set(found) <= set(SPOKEN)
    assert set(LANGUAGES) == {"en", *found}


def test_the_code_marks_texts_to_translate(marked):
    assert len(marked) > 100


@pytest.mark.parametrize("path", CATALOGS, ids=language_of)
def test_a_catalog_holds_exactly_the_texts_the_code_marks(path, marked):
    catalog = polib.pofile(str(path))
    held = {(entry.msgctxt, entry.msgid) for entry in catalog if not entry.obsolete}
    missing, stale = sorted(set(marked) - held), sorted(held - set(marked))
    assert not missing, f"{len(missing)} texts not in the catalog (run `make catalogs`): {missing[:5]}"
    assert not stale, f"{len(stale)} texts the code no longer has (run `make catalogs`): {stale[:5]}"


@pytest.mark.parametrize("path", CATALOGS, ids=language_of)
def test_every_entry_is_translated_none_fuzzy_and_keeps_its_placeholders(path):
    catalog = polib.pofile(str(path))
    assert catalog.metadata.get("Language") == language_of(path)
    problems = []
    for entry in catalog:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if not all(text.strip() for text in texts):
            problems.append(f"untranslated: {entry.msgid!r}")
            continue
        wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural or "")
        for text in texts:
            if placeholders(text) - wanted or (not entry.msgid_plural and placeholders(text) != wanted):
                problems.append(f"placeholders differ: {entry.msgid!r} -> {text!r}")
    assert not problems, f"{len(problems)} entries to put right:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("path", CATALOGS, ids=language_of)
def test_plural_forms_are_the_languages_own(path):
    """Russian has three forms (1 матч, 2 матча, 5 матчей): the header says so, as Babel's data does,
    and every plural entry gives each of them."""
    forms = get_plural(language_of(path)).num_plurals
    catalog = polib.pofile(str(path))
    assert f"nplurals={forms};" in catalog.metadata.get("Plural-Forms", "").replace(" ", "")
    short = [entry.msgid for entry in catalog if entry.msgid_plural and len(entry.msgstr_plural) != forms]
    assert not short, f"plural entries without {forms} forms: {short[:5]}"


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}
