import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # ``from helpers import ...`` in test modules

# Runtime tests run real JAX on the CPU, whatever the machine has.
os.environ.setdefault("JAX_PLATFORMS", "cpu")
# The tests count compiles, read errors and compare outputs of small programs: none of that
# depends on how hard XLA optimises the code it compiles, and LLVM's passes are most of the
# compile time of a small program (-12% CPU on the runtime fixture tests; the children inherit
# it). XLA's newer CPU fusion emitters take twice the compile time of the classic elemental
# emitters on these programs: off, the runtime fixture runs take 29% less CPU (74.6 CPU-s for
# 105.6 on the 213 trace-error, shape-churn and stale-value fixtures). A user's own XLA_FLAGS win.
os.environ.setdefault("XLA_FLAGS",
                      "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"
                      " --xla_cpu_use_fusion_emitters=false")
# Nothing is written into the checkout (xdist workers share it): hypothesis would keep its
# caches in .hypothesis under the directory pytest started in. Set before collection, where
# test_fuzz's strategies first need them.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY",
                      os.path.join(tempfile.gettempdir(), "jitlint-tests-hypothesis"))

# pytest rewrites the asserts of every module of a distribution that has a pytest plugin
# (jitlint, hypothesis, anyio, pytest-lsp ...) as it is imported: it parses and compiles them
# from source, in each xdist worker, and with PYTHONDONTWRITEBYTECODE (set on CI machines) it
# cannot keep what it compiled. None of them is test code: they are imported from the .pyc
# files pip compiled (about 3 CPU-s less per worker). Test modules and conftest are still
# rewritten; pytest has no public switch for this, so the hook's list is read defensively.
for _finder in sys.meta_path:
    if type(_finder).__name__ == "AssertionRewritingHook" and hasattr(_finder, "_must_rewrite"):
        _finder._must_rewrite.clear()
        _finder._marked_for_rewrite_cache.clear()

STALE = ("the installed jitlint differs from this checkout: run pip install '.[test]' again, "
         "or pip install -e '.[test]' for development")


def pytest_report_header(config):
    from helpers import child_copy, imported_copy

    tested, child = imported_copy(), child_copy()
    lines = [f"jitlint: {tested.package} ({tested.kind})"]
    if child != tested:
        lines.append(f"jitlint in child processes: {child.package} ({child.kind})")
    return lines


def pytest_xdist_auto_num_workers(config):
    """``-n logical`` (pyproject's addopts): one pytest-xdist worker per core, plus one.  Some
    tests wait with a core idle (a --confirm run killed at its timeout, a language-server
    exchange, pre-commit's install): the extra worker keeps both cores of a 2-core machine busy
    meanwhile.  PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


# The modules that take longest, longest first (wall time per module of an idle run on 2 cores,
# the tenth session; a module of one long batch waiting for its children or a timed-out
# --confirm run counts as long). pytest-xdist's loadscope hands out whole modules in collection
# order (pyproject's --no-loadscope-reorder: by default it orders them by their number of tests,
# which left modules of a few long tests for the end, with one worker running them while the
# others idled). The other modules follow, in their order.
LONGEST_MODULES = (
    "test_jaxfacts.py", "test_tracing_runtime.py", "test_confirm_isolation.py",
    "test_flake8_plugin.py", "test_fixtures.py", "test_confirm.py", "test_cli.py",
    "test_eager_rules.py", "test_static_runtime.py", "test_precommit.py", "test_cache.py",
    "test_reparse.py", "test_confirm_verdicts.py", "test_repetition_runtime.py",
    "test_project_scope.py", "test_project_calls.py", "test_flax_rules.py",
    "test_fresh_runtime.py", "test_server.py", "test_static_index.py", "test_trace_semantics.py",
    "test_compile_counting.py", "test_changing_statics_runtime.py", "test_feedback_rules.py",
    "test_value_flow_runtime.py", "test_fuzz.py", "test_mcp.py", "test_notebooks.py",
    "test_argument_types_runtime.py", "test_fixes.py", "test_ipython_extension.py",
)


def pytest_collection_modifyitems(items):
    rank = {name: index for index, name in enumerate(LONGEST_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: tests keep their order


@pytest.hookimpl(trylast=True)  # after the header, which shows what is imported
def pytest_sessionstart(session):
    """Never test stale code silently: each copy the tests run must be this checkout's code."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller checked
        return
    from helpers import child_copy, imported_copy

    for copy in {imported_copy(), child_copy()}:
        differ = copy.differences()
        if differ:
            shown = ", ".join(differ[:5]) + (f" and {len(differ) - 5} more" if len(differ) > 5 else "")
            pytest.exit(f"{STALE}\n  {copy.package} ({copy.kind}) differs in: {shown}",
                        returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session", autouse=True)
def run_outside_the_checkout(tmp_path_factory):
    """Tests, and every process they start, run in an empty directory, as a user's would.

    ``python -m jitlint``, ``python -c`` and Jupyter kernels put their working directory first
    on sys.path: this checkout there would shadow the jitlint under test (the installed wheel
    in CI). Fixture and example files are data, read from the checkout by absolute path.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("cwd"))
        yield


@pytest.fixture
def run_cli(capsys):
    """Run the jitlint CLI in-process: returns (exit code, stdout, stderr)."""
    from jitlint.cli import main

    def run(*args: str):
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run
