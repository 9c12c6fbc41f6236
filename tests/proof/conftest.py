"""The proofs (issue 13): each records its figures, printed at the end of the run.

make proof                       # the proofs alone, on SQLite and PostgreSQL
.venv/bin/python -m pytest -m proof tests/proof    # SQLite only, unless TEST_POSTGRES_URL is set
"""

from __future__ import annotations

import pytest

FIGURES: list[str] = []


@pytest.fixture
def figures():
    """Append a line to the proof figures shown after the run."""
    return FIGURES.append


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("proof figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
