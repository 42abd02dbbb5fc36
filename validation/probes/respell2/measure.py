"""Run every round-2 respelling probe under real JAX and check (or, with --write, fill in) its runtime
header: the route probes' measurement (../routes/measure.py: compiles, calls, STALE, ERROR)
applied to this directory.

    python validation/probes/respell2/measure.py [--write] [NAME ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "routes"))
import measure as routes_measure  # noqa: E402

routes_measure.HERE = HERE

if __name__ == "__main__":
    sys.exit(routes_measure.main())
