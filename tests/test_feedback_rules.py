"""JIT510, measured: a jitted step whose output comes back as its input with another shape
compiles once per shape; the fixed-shape versions compile once.  Real JAX on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import FIXTURES, expected_findings, run_all_counting_compiles, user_function_compiles

FEEDBACK = sorted((FIXTURES / "feedback").glob("*.py"))
MEASURED = {  # fixture -> compiles per jitted function over its 5 iterations
    "generation_concatenate.py": {"generate_step": 5},
    "generation_jitted_lambda.py": {"<lambda>": 5},
    "padding_past_limit.py": {"push": 5},
    "running_mean_keepdims.py": {"update_mean": 2},
    "running_mean_ok.py": {"update_mean": 1},
    "running_stat_keepdims_helper.py": {"update_mean": 2, "update_scale": 2},
    "generation_fixed_buffer_ok.py": {"generate_step": 1, "slide": 1},
    "pairwise_reduction_fed_back_shrinks.py": {"pairwise_sum": 5},  # 32 -> 1: five levels
    "pairwise_reduction_in_one_jit_ok.py": {"tree_sum": 1, "shift_add": 1},
    "name_reused_for_fresh_batch_ok.py": {"add_time_fn": 1},  # 4 iterations, X drawn anew in each
    "kv_cache_grown_with_array_api_concat.py": {"decode_step": 5},
    "sliding_window_with_array_api_concat_ok.py": {"push": 1},
    "kv_cache_rebound_in_branch.py": {"decode_step": 5},  # grown through a rebound name
    "kv_cache_written_in_place_ok.py": {"decode_step": 1},
}


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(FEEDBACK)


def test_every_fixture_is_measured():
    assert sorted(p.name for p in FEEDBACK) == sorted(MEASURED)


@pytest.mark.parametrize("path", FEEDBACK, ids=lambda p: p.name)
def test_feedback_fixture_compiles_as_claimed(path: Path, reports):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = dict(user_function_compiles(report, path))
    assert compiles == MEASURED[path.name]
    flagged = {code for _, code in expected_findings(path)} == {"JIT510"}
    assert flagged == (max(compiles.values()) > 1)


def test_tutorial_notebook_recompiles_where_marked(tmp_path):
    pytest.importorskip("jax")
    from collections import Counter

    from helpers import run_counting_compiles
    from test_notebook_semantics import notebook_as_script
    from test_notebooks import cell_marks

    path = FIXTURES / "notebooks" / "tutorial_shapes_and_loops.ipynb"
    # JIT802: the demo cell's jax.jit(lambda v: int(v)) raises, caught on purpose (checked below)
    assert {code for _, _, code in cell_marks(path)} == {"JIT510", "JIT520", "JIT620", "JIT802"}
    report = run_counting_compiles(notebook_as_script(path, tmp_path))
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = Counter(e["fun_name"] for e in report["compiles"])
    assert compiles["jit(update_mean)"] == 2  # keepdims: (5,) then (1, 5)
    assert compiles["jit(extend)"] == 5  # one per appended token
    assert compiles["jit(scan)"] == 5  # newton_sqrt's local fori_loop body, per call
    assert "ConcretizationTypeError" in report["stdout"]  # the demo's error, shown on purpose
