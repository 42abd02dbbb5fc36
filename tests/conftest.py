import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# Runtime tests run real JAX on the CPU, whatever the machine has.
os.environ.setdefault("JAX_PLATFORMS", "cpu")


@pytest.fixture
def run_cli(capsys):
    """Run the jitlint CLI in-process: returns (exit code, stdout, stderr)."""
    from jitlint.cli import main

    def run(*args: str):
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def pytest_configure(config):
    sys.path.insert(0, str(Path(__file__).parent))
