"""Run every probe here under real JAX and check (or, with --write, fill in) its header.

    python validation/probes/trace_time/measure.py [--write]

Each probe's header says what it does at run time (``# runtime: ERROR <Type>`` or
``# runtime: ok``) and what jitlint should report (``# expect: CODE at line N`` or
``# expect: none``).  A probe runs in a process forked after one import of JAX (and flax,
equinox), with its own directory on sys.path; the line of an error is the innermost frame in
the probe's own file.  ``--write`` replaces ``?`` placeholders with the measured values;
without it a mismatch between header and measurement is printed and the exit status is 1.
"""

from __future__ import annotations

import json
import os
import re
import runpy
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNTIME = re.compile(r"^# runtime: (?P<value>.+)$", re.M)
EXPECT = re.compile(r"^# expect: (?P<value>.+)$", re.M)


def run_forked(path: Path) -> dict:
    """{"status": "ok"} or {"status": "raised", "type": ..., "line": ...} for one probe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            runpy.run_path(str(path), run_name="__main__")
            result = {"status": "ok"}
        except BaseException as error:  # noqa: BLE001 - the probe's outcome is the measurement
            frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename) == path]
            result = {"status": "raised", "type": type(error).__name__,
                      "line": frames[-1].lineno if frames else None}
        os.write(write, json.dumps(result).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return json.loads(data) if data else {"status": "crashed"}


def main() -> int:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import equinox  # noqa: F401  imported once, before the forks
    import flax.linen  # noqa: F401
    import jax  # noqa: F401
    sys.path.insert(0, str(HERE))
    write = "--write" in sys.argv
    bad = 0
    for path in sorted(HERE.glob("[pn]_*.py")):
        outcome = run_forked(path)
        measured = "ok" if outcome["status"] == "ok" else f"ERROR {outcome.get('type')}"
        text = path.read_text()
        runtime = RUNTIME.search(text)["value"]
        expect = EXPECT.search(text)["value"]
        if write:
            text = RUNTIME.sub(f"# runtime: {measured}", text, count=1)
            if "?" in expect and outcome["status"] == "raised":
                text = EXPECT.sub(f"# expect: {expect.replace('?', str(outcome['line']))}", text, count=1)
            path.write_text(text)
        elif runtime != measured:
            print(f"{path.name}: header says {runtime!r}, measured {measured!r}")
            bad += 1
        print(f"{path.name:40} {measured:40} line {outcome.get('line')}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
