# source: https://github.com/google/learned_optimization/commit/749c7ea3d710c68c8c78dfcfe068894d38290c62
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: After the commit the counters start as jnp.asarray(0, dtype=jnp.int32); the jitted update compiles once.
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

import collections
from typing import Any

import jax
import jax.numpy as jnp

MomAccumulator = collections.namedtuple("MomAccumulator", ["m", "t"])
RMSAccumulator = collections.namedtuple("RMSAccumulator", ["rms", "t"])
_InitUpdate = collections.namedtuple("_InitUpdate", ["init", "update"])


def rolling_mom(decay: float) -> _InitUpdate:
  """Acculator to keep track of momentum."""

  def init_fn(p: Any) -> MomAccumulator:
    return MomAccumulator(
        m=jax.tree.map(jnp.zeros_like, p), t=jnp.asarray(0, dtype=jnp.int32))

  def update_fn(state: MomAccumulator, grad: Any) -> MomAccumulator:
    m = jax.tree.map(lambda a, b: decay * a + (1 - decay) * b, state.m,
                     grad)  # jax.tree_multimap in 2022
    return MomAccumulator(m=m, t=state.t + 1)

  return _InitUpdate(init_fn, update_fn)


def rolling_rms(decay: float) -> _InitUpdate:
  """Acculator to keep track of second moment accumulators."""

  def init_fn(p: Any) -> RMSAccumulator:
    return RMSAccumulator(
        rms=jax.tree.map(jnp.zeros_like, p), t=jnp.asarray(0, dtype=jnp.int32))

  def update_fn(state: RMSAccumulator, grad: Any) -> RMSAccumulator:
    clip_decay = jnp.clip(decay, 0.0, 1.0)
    rms = jax.tree.map(
        lambda a, b: clip_decay * a + (1 - clip_decay) * (b * b), state.rms,
        grad)  # jax.tree_multimap in 2022
    return RMSAccumulator(rms=rms, t=state.t + 1)

  return _InitUpdate(init_fn, update_fn)


# scaffolding: a learned optimizer step that carries the accumulators through a jitted update
mom = rolling_mom(0.9)
rms = rolling_rms(0.999)


@jax.jit
def lopt_update(mom_state, rms_state, grad):  # scaffolding
  return mom.update(mom_state, grad), rms.update(rms_state, grad)


params = {"w": jnp.ones((3,))}  # scaffolding
mom_state, rms_state = mom.init(params), rms.init(params)
calls = 0  # scaffolding
for step in range(4):  # scaffolding
  mom_state, rms_state = lopt_update(mom_state, rms_state, {"w": jnp.full((3,), 0.1 * step)})
  calls += 1  # scaffolding
_report({"jit(lopt_update)"}, calls)  # scaffolding
