# source: https://github.com/jax-ml/jax/issues/16084
# expect: shape-churn at line 45
# runtime: COMPILES 3 CALLS 6
# why: the jitted _loss_and_grad_fn is mapped over groups whose sizes differ (4, 6, 8 rows), so it compiles once per group size: 3 compiles for the 6 calls of two passes.
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
from typing import Callable, Tuple

import jax
import jax.numpy as jnp


def get_mapped_loss_and_grad(
        loss_fn: Callable,
        model_fn: Callable,
) -> Tuple[Callable, Callable]:
    _loss_and_grad_fn = jax.jit(jax.value_and_grad(loss_fn))

    def loss_and_grad_fn(model_params, group_Xs, group_Ys):
        num_groups = len(group_Ys)
        group_Ns = [len(y) for y in group_Ys]  # scaffolding: the lambda below takes group_N
        group_losses = jax.tree_util.tree_map(
            lambda group_X, group_Y, group_N:
            _loss_and_grad_fn(model_params, group_X, group_Y),
            group_Xs, group_Ys, group_Ns
        )
        losses = [l for l, _ in group_losses]  # scaffolding: the rest is cut off
        return sum(losses) / num_groups

    return loss_and_grad_fn


def model_fn(params, X):  # scaffolding
    return X @ params


def loss_fn(params, X, Y):  # scaffolding
    return jnp.mean((model_fn(params, X) - Y) ** 2)


loss_and_grad_fn = get_mapped_loss_and_grad(loss_fn, model_fn)
params = jnp.ones(3)  # scaffolding
group_Xs = [jnp.ones((n, 3)) for n in (4, 6, 8)]  # scaffolding: groups of different sizes
group_Ys = [jnp.ones(n) for n in (4, 6, 8)]  # scaffolding
for _ in range(2):  # scaffolding: two passes
    loss_and_grad_fn(params, group_Xs, group_Ys)
_report({"jit(loss_fn)"}, 6)
