# source: https://github.com/google-research/kauldron/commit/0e4c33254efba7b2ea06ce290a7b5702a8072d18
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit compute uses jax.lax.cond on count == 0, so it traces under jit and the step compiles once.
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
    return jax.lax.cond(
        self.count == 0,
        lambda: self.total * 0.0,
        lambda: self.total / self.count,
    )


@jax.jit
def eval_step(state, losses, mask):  # scaffolding: a jitted step that merges and reports the metric
  state = state.merge(AverageState.from_values(losses, mask=mask))
  return state, state.compute()


state = AverageState(total=jnp.array(0.0, jnp.float32), count=jnp.array(0.0, jnp.float32))  # AverageState.empty()
calls = 0  # scaffolding
try:  # scaffolding
  for i in range(3):  # scaffolding
    state, avg = eval_step(state, jnp.arange(4.0) + i, jnp.array([1.0, 1.0, 0.0, 1.0]))
    calls += 1  # scaffolding
  _report({"jit(eval_step)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
