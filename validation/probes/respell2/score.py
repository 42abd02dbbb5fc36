"""Score jitlint on the round-2 respelling probes: recall over the probes that misbehave, precision over all
findings.

    python validation/probes/respell2/score.py [--show]

(from the project root, with jitlint importable).  How a probe's ``# expect:`` header is
matched, and how directory probes and notebooks are linted: ../harness.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import score_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(score_main(Path(__file__).resolve().parent))
