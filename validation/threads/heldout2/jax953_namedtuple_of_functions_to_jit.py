# source: https://github.com/jax-ml/jax/issues/953
# expect: trace-time-error at line 49
# runtime: ERROR TypeError
# why: optimizer is a NamedTuple of the three optimizer functions; jit flattens it as a pytree and its leaves are Python functions, not arrays, so jit(ddpg_episode)(optimizer, ...) raises TypeError.

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


from typing import Any, Callable, NamedTuple, TypeVar
import jax.numpy as jnp  # scaffolding
from jax import jit
from jax.example_libraries import optimizers  # jax.experimental.optimizers in 2019

OptState = TypeVar("OptState")

class Optimizer(NamedTuple):
  init: Callable[[Any], OptState]
  update: Callable[[int, Any, OptState], OptState]
  get: Callable[[OptState], Any]

def ddpg_episode(
    optimizer: Optimizer,
    params,  # scaffolding: '...' in the thread
):
  opt_state = optimizer.init(params)  # scaffolding
  return optimizer.get(opt_state)  # scaffolding

optimizer = Optimizer(*optimizers.adam(step_size=1e-3))
try:  # scaffolding
  jit(ddpg_episode)(
      optimizer,
      jnp.ones(3),  # scaffolding: '...' in the thread
  )
  _report({"jit(ddpg_episode)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
