# source: https://github.com/AI-Hypercomputer/maxtext/commit/33a1d710cae66fa1e02ecd3f404ef5916510eff5
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The SFT loop wraps jax.random.fold_in in jax.jit on every step, but jit caches by the wrapped function and the step is a numpy int32 array of fixed type, so five steps compile once.
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

import jax
import numpy as np


class _Config:  # scaffolding
  steps = 5


config = _Config()  # scaffolding
init_rng = jax.random.PRNGKey(0)  # scaffolding
start_step = 0  # scaffolding: get_first_step(model, state)
for step in np.arange(start_step, config.steps):
  # pylint: disable=not-callable
  nextrng = jax.jit(jax.random.fold_in)(init_rng, step)
_report({"jit(fold_in)"}, config.steps)  # scaffolding
