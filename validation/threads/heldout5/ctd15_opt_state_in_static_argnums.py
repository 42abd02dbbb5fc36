# source: https://github.com/google-research/computation-thru-dynamics/issues/15
# expect: unhashable-static at line 47
# runtime: ERROR ValueError
# why: optimize_fp_core_jit marks argument 3, the optimizer state, static; an OptimizerState holds lists (packed_state), which are unhashable, so the first call raises ValueError (non-hashable static arguments), as in the report.
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


import jax.numpy as np
from jax import jit, lax, grad
from jax.example_libraries import optimizers  # scaffolding: the notebook's fixed_point_finder.optimizers is a copy of this module


def optimize_fp_core(batch_idx_start, num_batches, update_fun, opt_state):
  """Gradient updates to fixed points candidates in order to find fixed points.

  Uses lax.fori_loop instead of a Python loop to reduce JAX overhead. This 
    loop will be jit'd and run on device."""

  def run_update(batch_idx, opt_state):
    opt_state = update_fun(batch_idx, opt_state)
    return opt_state

  lower = batch_idx_start
  upper = batch_idx_start + num_batches
  return lax.fori_loop(lower, upper, run_update, opt_state)


optimize_fp_core_jit = jit(optimize_fp_core, static_argnums=(1, 2, 3))


opt_init, opt_update, get_params = optimizers.adam(0.01)  # scaffolding
loss = lambda h: np.mean(h ** 2)  # scaffolding: stands in for the fixed-point loss of the RNN


def update_fun(i, opt_state):  # scaffolding
    return opt_update(i, grad(loss)(get_params(opt_state)), opt_state)  # scaffolding


opt_state = opt_init(np.ones((16, 4)))  # scaffolding: fixed-point candidates
batch_idx_start, print_every = 0, 10  # scaffolding
try:  # scaffolding
    opt_state = optimize_fp_core_jit(batch_idx_start, print_every, update_fun,
                                     opt_state)
    _report({"jit(optimize_fp_core)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
