"""The README's pictures: a table scoring Court Piece on a phone, taken by the browser as a
player sees each step. `make screenshots` writes them to docs/screenshots/; the suite takes them
into a scratch folder, so a page that stops showing what the README says fails here first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .table import board, group, tap, the_form

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Bilal", "Chathurika", "Dev"]


@pytest.fixture
def folder(tmp_path) -> Path:
    chosen = os.environ.get("SCREENSHOTS")
    path = Path(chosen) if chosen else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def snap(page: Page, folder: Path, name: str) -> None:
    """The phone's screen as it is (not the whole page): what a player sees without scrolling."""
    page.screenshot(path=str(folder / f"{name}.png"))
    assert (folder / f"{name}.png").stat().st_size > 5000


def test_a_table_scores_court_piece_as_the_readme_shows(page: Page, folder: Path):
    page.goto("/")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    snap(page, folder, "1-home")

    page.get_by_role("link", name="Court Piece", exact=True).click()
    for seat, name in enumerate(PLAYERS):
        page.get_by_role("combobox", name=f"Seat {seat + 1} side {'AB'[seat % 2]}", exact=True).fill(name)
    snap(page, folder, "2-new-match")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(board(page)).to_be_visible()

    for number, tricks in ((1, "8"), (2, "4")):
        form = the_form(page)
        tap(group(form, "How did the hand end?"), "Tricks")
        tap(group(group(form, "Tricks"), "Ana & Chathurika"), tricks)
        page.get_by_role("button", name=f"Record hand {number}").click()
        expect(page.get_by_role("button", name=f"Undo hand {number}")).to_be_visible()
    snap(page, folder, "3-match")

    page.get_by_role("link", name="Share", exact=True).first.click()
    expect(page.get_by_role("heading", name="Share", exact=False).first).to_be_visible()
    snap(page, folder, "4-share")

    page.goto("/rules/court_piece")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Court Piece")
    snap(page, folder, "5-rules")
