"""Flax rules, measured with real flax/optax/JAX on the CPU: JIT820 (jax.jit drops in-place
NNX updates), JIT610 (a jitted function keeps a global NNX module's first weights), JIT110
(nn.jit built inside a Linen method compiles on every apply)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from helpers import FIXTURES, expected_findings, run_all_counting_compiles
from test_notebook_semantics import notebook_as_script
from test_notebooks import cell_marks

FLAX = FIXTURES / "flax"
RESULT = re.compile(r"^RESULT (\d+) (\d+)$", re.M)


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("flax.nnx")
    pytest.importorskip("optax")
    return run_all_counting_compiles(sorted(FLAX.glob("*.py")))


def result(report: dict) -> tuple[int, int]:
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    [match] = RESULT.findall(report["stdout"])
    return int(match[0]), int(match[1])


@pytest.mark.parametrize("name, flagged, steps, distinct", [
    ("jax_jit_nnx_train_step.py", True, 0, 1),  # 3 steps, the loss never moves
    ("jax_jit_nnx_counter.py", True, 0, 1),
    # the model is returned, the optimizer is not: Adam restarts every call, the loss
    # oscillates between 3 values in 5 steps and the step count stays 0
    ("jax_jit_returns_model_not_optimizer.py", True, 0, 3),
    ("nnx_jit_train_step_ok.py", False, 3, 3),
    ("jax_jit_returns_nnx_objects_ok.py", False, 3, 3),
    ("jax_jit_split_merge_ok.py", False, 3, 3),
])
def test_jit820_updates_under_jax_jit_are_lost(reports, name, flagged, steps, distinct):
    path = FLAX / name
    assert any(code == "JIT820" for _, code in expected_findings(path)) == flagged
    count, distinct_losses = result(reports[path])
    assert count == steps  # optimizer steps (or calls counted) that reached the caller
    assert distinct_losses == distinct


def test_jit610_updating_a_global_nnx_object_under_jax_jit_raises(reports):
    path = FLAX / "jax_jit_updates_global_optimizer.py"
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    assert "ValueError Cannot extract graph node from different trace level" in report["stdout"]
    assert expected_findings(path) == {(16, "JIT610")}


@pytest.mark.parametrize("name, printed", [
    # flax#4695: NNX objects reached through `self` from a function defined in a method
    ("jax_jit_closure_in_init_updates_self_optimizer.py", "ValueError"),
    ("jax_jit_closure_in_method_updates_self_counter.py", "TraceContextError"),
    ("nnx_jit_closure_in_method_updates_self_model.py", "ValueError"),
    ("nnx_jit_closure_differentiates_self_model.py", "ValueError"),
    ("nnx_jit_step_differentiates_model_argument_ok.py", "steps: 3"),
    ("nnx_jit_method_passes_self_objects_ok.py", "steps: 3"),
    ("jax_jit_method_split_merge_ok.py", "steps: 3"),
])
def test_nnx_objects_closed_over_through_self_raise(reports, name, printed):
    path = FLAX / name
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    assert report["stdout"].strip().splitlines()[-1] == printed
    assert bool(expected_findings(path)) == (not printed.startswith("steps"))


@pytest.mark.parametrize("name, flagged", [
    ("nnx_jit_reads_global_model.py", True),
    ("nnx_jit_model_argument_ok.py", False),
])
def test_jit610_a_global_module_keeps_its_first_weights(reports, name, flagged):
    path = FLAX / name
    assert any(code == "JIT610" for _, code in expected_findings(path)) == flagged
    predict_unchanged, model_unchanged = result(reports[path])
    assert model_unchanged == 0  # training did change the model
    assert predict_unchanged == int(flagged)  # ... and predict saw it only when passed in


def test_jit610_inference_only_global_is_quiet_and_compiles_once(reports):
    report = reports[FLAX / "nnx_jit_global_model_frozen_ok.py"]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    assert expected_findings(FLAX / "nnx_jit_global_model_frozen_ok.py") == set()


def test_jit110_lifted_jit_in_call_compiles_on_every_apply(reports):
    built_in_call = Counter(e["fun_name"] for e in reports[FLAX / "linen_jit_built_in_call.py"]["compiles"])
    hoisted = Counter(e["fun_name"] for e in reports[FLAX / "linen_jit_class_hoisted_ok.py"]["compiles"])
    assert built_in_call["jit(core_fn)"] == 6  # init + 5 applies: one compile each
    assert hoisted["jit(core_fn)"] == 2  # init + the first apply, then cached
    assert expected_findings(FLAX / "linen_jit_built_in_call.py") == {(11, "JIT110")}


def test_nnx_notebook_runs_as_claimed(tmp_path):
    pytest.importorskip("flax.nnx")
    from helpers import run_counting_compiles

    path = FIXTURES / "notebooks" / "nnx_training.ipynb"
    assert {code for _, _, code in cell_marks(path)} == {"JIT610", "JIT820"}
    report = run_counting_compiles(notebook_as_script(path, tmp_path))
    assert "steps after jax.jit: 0" in report["stdout"], report["stderr"][-2000:]
    # 20 nnx.jit steps count, and predict still returns its first output.
    assert result(report) == (20, 1)


def test_linen_notebook_compiles_on_every_apply(tmp_path):
    pytest.importorskip("flax.linen")
    from helpers import run_counting_compiles

    path = FIXTURES / "notebooks" / "linen_lifted_jit.ipynb"
    assert {code for _, _, code in cell_marks(path)} == {"JIT110"}
    report = run_counting_compiles(notebook_as_script(path, tmp_path))
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    # 3 lifted Dense layers compile at init and again on each of the 3 applies.
    assert Counter(e["fun_name"] for e in report["compiles"])["jit(core_fn)"] == 3 * 4


@pytest.mark.parametrize("name, printed", [
    ("nnx_jit_of_module_instance_updates_self.py", "TraceContextError"),  # flax#3997
    ("nnx_jit_updates_global_counter.py", "TraceContextError"),
    ("nnx_jit_module_passed_updates_ok.py", "count 3"),
    ("jax_jit_closes_over_nnx_dropout.py", "TraceContextError"),  # flax#4539: the RNG stream's count
    ("nnx_jit_closes_over_module_with_batchnorm.py", "TraceContextError"),  # running statistics
    ("closed_over_layers_that_do_not_update_ok.py", "count 3"),
])
def test_jit610_updating_a_closed_over_module_inside_nnx_jit_raises(reports, name, printed):
    path = FLAX / name
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    assert report["stdout"].strip().splitlines()[-1] == printed
    assert any(code == "JIT610" for _, code in expected_findings(path)) == (printed != "count 3")
