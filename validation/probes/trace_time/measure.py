"""Run every probe here under real JAX and check (or, with --write, fill in) its header.

    python validation/probes/trace_time/measure.py [--write]

Each probe's header says what it does at run time (``# runtime: ERROR <Type>`` or
``# runtime: ok``) and what jitlint should report (``# expect: CODE at line N`` or
``# expect: none``).  A probe runs in a process forked after one import of JAX (and flax,
equinox): ../harness.py.  ``--write`` replaces ``?`` placeholders with the measured values;
without it a mismatch between header and measurement is printed and the exit status is 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from harness import EXPECT, RUNTIME, import_libraries, probes, run_forked  # noqa: E402


def main() -> int:
    import_libraries()
    write = "--write" in sys.argv
    bad = 0
    for probe in probes(HERE):
        outcome = run_forked(probe)
        measured = "ok" if outcome["status"] == "ok" else f"ERROR {outcome.get('type')}"
        path = probe.header_file
        text = path.read_text()
        runtime = RUNTIME.search(text)["value"]
        if write:
            text = RUNTIME.sub(f"# runtime: {measured}", text, count=1)
            expect = EXPECT.search(text)
            if expect is None and outcome["status"] == "raised":  # "# expect: JIT8xx at line ?"
                text = text.replace("at line ?", f"at line {outcome['line']}", 1)
            path.write_text(text)
        elif runtime != measured:
            print(f"{probe.name}: header says {runtime!r}, measured {measured!r}")
            bad += 1
        print(f"{probe.name:40} {measured:40} line {outcome.get('line')}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
