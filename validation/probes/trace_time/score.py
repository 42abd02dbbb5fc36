"""Score jitlint on the trace-time probes: recall over the probes that raise, precision over all
findings.

    python validation/probes/trace_time/score.py [--show]

(from the project root, with jitlint importable).  A probe's ``# expect: CODE at line N`` is
found when jitlint reports a code of the same family (its first four characters: JIT8 for the
trace-time rules) within one line of N; every other finding (any code, in any probe, negatives
included) is false.  JIT000 and JIT900 are not findings.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECT = re.compile(r"^# expect: (?:(?P<code>JIT\d+) at line (?P<line>\d+)|none)$", re.M)


def main() -> int:
    run = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", "--exit-zero",
                          "--output-format", "json", str(HERE)], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"jitlint failed: {run.stderr[-500:]}")
    findings = [f for f in json.loads(run.stdout) if f["code"] not in ("JIT000", "JIT900")]
    found = missed = false = 0
    lines = []
    for path in sorted(HERE.glob("[pn]_*.py")):
        match = EXPECT.search(path.read_text())
        mine = [f for f in findings if Path(f["path"]).name == path.name]
        hit = None
        if match["code"]:
            code, line = match["code"], int(match["line"])
            hit = next((f for f in mine if f["code"][:4] == code[:4] and abs(f["line"] - line) <= 1), None)
            found += hit is not None
            missed += hit is None
            if hit is None:
                lines.append(f"MISS  {path.name}: {code} at line {line}")
        for f in mine:
            if f is not hit:
                false += 1
                lines.append(f"FALSE {path.name}:{f['line']}: {f['code']} {f['message'][:100]}")
    recall = found / (found + missed) if found + missed else 1.0
    precision = found / (found + false) if found + false else 1.0
    if "--show" in sys.argv:
        print("\n".join(lines))
    print(f"probes {len(list(HERE.glob('[pn]_*.py')))}: found {found}, missed {missed}, false {false}; "
          f"recall {recall:.2f}, precision {precision:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
