"""How the suite is handed out to pytest-xdist's workers (tests/conftest.py)."""

from pathlib import Path

from conftest import LONGEST_MODULES


def test_the_longest_modules_named_first_exist():
    """A renamed module would silently fall back to the end of the suite, where a long module
    keeps one worker busy while the others idle."""
    tests = Path(__file__).parent
    assert [name for name in LONGEST_MODULES if not (tests / name).is_file()] == []
