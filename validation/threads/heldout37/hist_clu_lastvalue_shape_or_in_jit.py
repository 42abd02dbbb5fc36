# source: https://github.com/google/CommonLoopUtils/blob/9147399887a0d2d78b90e2ff9da1348c157162a9/clu/metrics.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: LastValue.from_model_output branches in Python on `mask is None` and on `(value.shape or [()])[0]` inside a jitted step, but shapes are static under jit, so the step traces fine and compiles once for four same-shaped calls.

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
from typing import Any, Optional  # scaffolding

import flax
import jax
import jax.numpy as jnp
import numpy as np


class Metric:  # scaffolding: stand-in for clu.metrics.Metric
  pass


def _assert_same_shape(a, b):  # scaffolding
  if a.shape != b.shape:
    raise ValueError(f"Expected same shape: {a.shape} != {b.shape}")


@flax.struct.dataclass
class LastValue(Metric):
  """Keeps the last average batch value.

  This is useful to log values like the learning rate.
  """

  value: jnp.array

  @classmethod
  def empty(cls):
    return cls(value=jnp.array(jnp.nan, jnp.float32))

  @classmethod
  def from_model_output(cls,
                        value: jnp.array,
                        mask: Optional[jnp.array] = None,
                        **_) -> Metric:
    if mask is None:
      mask = jnp.ones((value.shape or [()])[0])
    return cls(jnp.where(mask, value, jnp.zeros_like(value)).sum() / mask.sum())

  def merge(self, other: "LastValue") -> "LastValue":
    _assert_same_shape(self.value, other.value)
    return other

  def compute(self) -> Any:
    return self.value


@jax.jit  # scaffolding
def train_step(step, losses):
  lr = 0.1 * 0.99 ** step
  return LastValue.from_model_output(losses * lr)


metric = LastValue.empty()  # scaffolding
rng = np.random.RandomState(0)
for step in range(4):
  metric = metric.merge(train_step(jnp.asarray(step, jnp.float32), rng.rand(8).astype(np.float32)))
print(metric.compute())
_report({"jit(train_step)"}, 4)
