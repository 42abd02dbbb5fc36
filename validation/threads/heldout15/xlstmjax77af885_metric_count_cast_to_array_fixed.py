# source: https://github.com/NX-AI/xlstm-jax/commit/77af8855bea882fb7d1fa1ac043caaef3d3ee9bf
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: after each update, a scalar count is converted to a jnp int32/float32 array, so the metrics keep one type and train_step compiles once for 3 calls.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
from collections.abc import Sequence
from functools import partial  # scaffolding
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax.core import FrozenDict, freeze, unfreeze


# xlstm_jax/trainer/metrics.py (after the commit; docstrings cut)
def update_metrics(
    global_metrics,
    step_metrics,
    default_log_modes: Sequence[str] | None = None,
):
    if global_metrics is None:
        global_metrics = {}
    if isinstance(global_metrics, FrozenDict):
        global_metrics = unfreeze(global_metrics)
    for key in step_metrics:
        # Prepare input metric
        metric_in = step_metrics[key]
        if not isinstance(metric_in, dict):
            metric_in = {"value": metric_in}
        val = metric_in["value"]
        if isinstance(val, jnp.ndarray) and jnp.issubdtype(val.dtype, jnp.floating):
            val = val.astype(jnp.float32)
        count = metric_in.get("count", 1)
        log_modes = metric_in.get("log_modes", default_log_modes)
        _update_single_metric(
            global_metrics,
            key,
            val,
            count,
            log_modes,
        )
    global_metrics = freeze(global_metrics)
    return global_metrics


def _empty_val(value: Any) -> Any:
    if isinstance(value, int):
        return 0
    elif isinstance(value, str):
        return ""
    elif isinstance(value, float):
        return 0.0
    elif isinstance(value, np.ndarray):
        return np.zeros_like(value)
    elif isinstance(value, jax.Array):
        return jnp.zeros_like(value)
    else:
        return value


def _update_single_metric(
    global_metrics,
    key: str,
    value: Any,
    count: Any,
    log_modes: Sequence[str] | None = None,
):
    if log_modes is None:
        log_modes = ["mean_nopostfix"]

    # Get previous metrics from global dict.
    if key not in global_metrics:
        global_metrics[key] = {mode: {"value": _empty_val(value), "count": 0} for mode in log_modes}
    metrics_dict = global_metrics[key]

    # Update each log mode.
    for log_mode in log_modes:
        mode_dict = metrics_dict[log_mode]
        if log_mode == "mean" or log_mode == "mean_nopostfix":
            # For mean, we store the sum of the values and the count.
            mode_dict["count"] += count
            mode_dict["value"] += value
        elif log_mode == "single":
            # For single, we store the last value.
            mode_dict["count"] = count
            mode_dict["value"] = value
        elif log_mode == "max":
            # For max, we store the maximum average value over all steps.
            mode_dict["count"] = 1
            mode_dict["value"] = jnp.maximum(mode_dict["value"], value / count)
        else:
            raise ValueError(f"Invalid log mode {log_mode}.")  # scaffolding: std/noreduce modes cut

        if not isinstance(mode_dict["count"], jnp.ndarray):
            # For scalars, we want to convert them into a full JAX array to have consistent types.
            dtype = jnp.float32 if isinstance(mode_dict["count"], float) else jnp.int32
            mode_dict["count"] = jnp.asarray(mode_dict["count"], dtype=dtype)


# scaffolding: a trainer step in the style of xlstm_jax/trainer/base/trainer.py: metrics are carried
# through the jitted train step and initialised from jax.eval_shape (init_train_metrics)
@jax.jit
def train_step(state, batch, metrics):
    loss = jnp.mean((batch @ state) ** 2)
    step_metrics = {"loss": {"value": loss * batch.shape[0], "count": jnp.array(batch.shape[0], jnp.int32),
                             "log_modes": ["mean", "max"]}}
    metrics = update_metrics(metrics, step_metrics)
    return state - 0.01 * jax.grad(lambda s: jnp.mean((batch @ s) ** 2))(state), metrics


state = jnp.ones((4,))
batch = jnp.ones((8, 4))
_, train_metric_shapes = jax.eval_shape(train_step, state, batch, None)
metrics = jax.tree.map(lambda x: jnp.zeros_like(x), train_metric_shapes)
calls = 0
for step in range(3):
    state, metrics = train_step(state, batch * (step + 1), metrics)
    calls += 1
_report({"jit(train_step)"}, calls)
