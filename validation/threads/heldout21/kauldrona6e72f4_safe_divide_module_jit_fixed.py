# source: https://github.com/google-research/kauldron/commit/a6e72f42b8f5423938be25880ac384dd0ede246e
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: After the commit compute calls a module-level @jax.jit _safe_divide, which is compiled once and reused on every host call.
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

import flax.struct
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def _safe_divide(total, count):
  return jax.lax.cond(
      count == 0,
      lambda: total * 0.0,
      lambda: total / count,
  )


@flax.struct.dataclass
class AverageState:  # kauldron/metrics/base_state.py (the State base class and its parent field left out)
  """Computes the average of a scalar or a batch of tensors."""

  total: jax.Array
  count: jax.Array

  @classmethod
  def from_values(cls, values, *, mask=None):
    """Factory to create the state from an array."""
    if values.ndim == 0:
      values = values[None]
    if mask is None:
      mask = jnp.ones_like(values)
    # Leading dimensions of mask and values must match.
    if mask.shape[0] != values.shape[0]:
      raise ValueError(
          "Argument `mask` must have the same leading dimension as `values`. "
          f"Received mask of dimension {mask.shape} "
          f"and values of dimension {values.shape}."
      )
    # Broadcast mask to the same number of dimensions as values.
    if mask.ndim < values.ndim:
      mask = jnp.expand_dims(
          mask, axis=tuple(np.arange(mask.ndim, values.ndim))
      )
    return cls(
        total=(values * mask).sum(),
        count=jnp.broadcast_to(mask, values.shape).sum(dtype=jnp.float32),
    )

  def merge(self, other):
    if self.total.shape != other.total.shape:
      raise ValueError(
          f"Expected same shape: {self.total.shape} != {other.total.shape}"
      )
    return type(self)(
        total=self.total + other.total,
        count=self.count + other.count,
    )

  def compute(self):
    return _safe_divide(self.total, self.count)


@jax.jit
def train_step(state, losses, mask):  # scaffolding: the jitted step accumulates the metric state
  return state.merge(AverageState.from_values(losses, mask=mask))


state = AverageState(total=jnp.array(0.0, jnp.float32), count=jnp.array(0.0, jnp.float32))  # AverageState.empty()
calls = 0  # scaffolding
for i in range(4):  # scaffolding: the host computes the metric for logging after every step
  state = train_step(state, jnp.arange(4.0) + i, jnp.array([1.0, 1.0, 0.0, 1.0]))
  avg = state.compute()
  calls += 1  # scaffolding
_report({"jit(cond)", "jit(_safe_divide)"}, calls)  # scaffolding
