"""Which paths git ignores (``.gitignore`` files, ``.git/info/exclude``, the global excludes).

Asked of git itself, once per directory walked (``git ls-files --others --ignored
--exclude-standard --directory``: an ignored directory comes back as one entry, so a huge
ignored tree costs nothing), so the answer is exactly git's.  Outside a git work tree, or
without git, nothing is ignored.  Tracked files are never ignored, as in git.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Iterable

_TIMEOUT = 30  # seconds; a wedged git must not hang the lint


def ignored_below(directory: str) -> frozenset[str]:
    """Absolute, normalised paths of the files and directories git ignores below ``directory``."""
    output = _git(directory, "ls-files", "--others", "--ignored", "--exclude-standard",
                  "--directory", "-z")
    base = os.path.abspath(directory)
    return frozenset(os.path.normpath(os.path.join(base, entry))
                     for entry in output.split("\0") if entry)


def ignored_files(paths: Iterable[str]) -> frozenset[str]:
    """The given files that git ignores (``git check-ignore``), as given."""
    by_directory: dict[str, list[str]] = {}
    for path in paths:
        by_directory.setdefault(os.path.dirname(os.path.abspath(path)), []).append(path)
    ignored = set()
    for directory, group in by_directory.items():
        names = [os.path.basename(p) for p in group]
        output = _git(directory, "check-ignore", "-z", "--stdin", stdin="\0".join(names))
        found = {entry for entry in output.split("\0") if entry}
        ignored.update(p for p, name in zip(group, names) if name in found)
    return frozenset(ignored)


def _git(directory: str, *args: str, stdin: str = "") -> str:
    """git's stdout, or '' when git is missing, fails, or ``directory`` is not in a work tree."""
    git = shutil.which("git")
    if git is None or not os.path.isdir(directory):
        return ""
    try:
        done = subprocess.run([git, "-C", directory, *args], input=stdin, capture_output=True,
                              text=True, timeout=_TIMEOUT, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode in (0, 1) else ""
