"""Which jitlint the tests run: in CI (.ci/run), the wheel built from this checkout and installed
into a fresh virtualenv, as ``pip install jitlint`` installs it, in this process and in every
process the tests start. Elsewhere (an editable install, PYTHONPATH) these tests are skipped; the
session's start checks that no copy differs from the checkout (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import CHECKOUT_PACKAGE, ROOT, child_copy, imported_copy

pytestmark = pytest.mark.skipif(os.environ.get("JITLINT_TEST_INSTALLED") != "1",
                                reason="JITLINT_TEST_INSTALLED=1 (set by .ci/run) tests the installed wheel")


def test_this_process_imports_the_installed_wheel():
    copy = imported_copy()
    assert copy.installed and copy.package != CHECKOUT_PACKAGE, copy
    assert not any(Path(entry or ".").resolve() == ROOT for entry in sys.path), sys.path


def test_child_processes_import_the_installed_wheel():
    assert child_copy() == imported_copy()


def test_confirm_runs_the_installed_bootstrap_and_the_pytest_plugin_is_installed():
    import jitlint.runtime.pytest_plugin
    from jitlint.runtime.runner import BOOTSTRAP

    package = imported_copy().package
    assert BOOTSTRAP.resolve().is_relative_to(package)
    assert Path(jitlint.runtime.pytest_plugin.__file__).resolve().is_relative_to(package)


def test_the_console_script_is_installed_and_runs():
    script = Path(sys.executable).with_name("jitlint")
    assert script.is_file(), f"no jitlint console script next to {sys.executable}"
    proc = subprocess.run([str(script), "rule", "JIT101"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and "# JIT101" in proc.stdout, proc.stderr
