# source: https://github.com/ryan112358/mbi/pull/196
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with stddev a dynamic (traced) leaf, as in the PR, the treedef of the two measurements is identical and the jitted L2 loss compiles once and is reused for the second noise level.

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
import dataclasses
from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

Clique = tuple  # scaffolding: stand-in for mbi.clique_utils.Clique


class Factor:  # scaffolding: stand-in for mbi.factor.Factor
  def __init__(self, values):  # scaffolding
    self.values = values  # scaffolding

  def datavector(self):  # scaffolding
    return self.values.flatten()  # scaffolding


@dataclasses.dataclass(frozen=True)
class DatavectorQuery:
  """Identity query: ``f.datavector()``."""

  def __call__(self, f: Factor) -> jax.Array:
    return f.datavector()


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class LinearMeasurement:
  noisy_measurement: ArrayLike
  clique: Clique = jax.tree.static()
  # Dynamic (traced) leaf, not static aux-data: a static value gets baked into
  # the treedef, changing the jit cache key and defeating precompile() reuse.
  stddev: float = 1.0
  query: Callable[[Factor], ArrayLike] = jax.tree.static(
      default=DatavectorQuery()
  )

  def __post_init__(self):
    object.__setattr__(self, "clique", tuple(self.clique))


@jax.jit  # scaffolding: in mbi the jitted estimator closes over this loss
def _l2_loss(
    marginals,
    measurements: tuple[LinearMeasurement, ...],
):
  """Weighted L2 loss over linear measurements."""
  loss = 0.0
  for M in measurements:
    mu = Factor(marginals)  # scaffolding: marginals.project(M.clique)
    stddev = jnp.maximum(M.stddev, 1e-12)
    diff = (M.query(mu) - M.noisy_measurement) / stddev
    loss += 0.5 * jnp.vdot(diff, diff)
  return loss


marginals = jnp.ones(4)  # scaffolding
m1 = LinearMeasurement(jnp.zeros(4), ('a',), stddev=1.0)
m2 = LinearMeasurement(jnp.zeros(4), ('a',), stddev=9.0)
print(_l2_loss(marginals, (m1,)), _l2_loss(marginals, (m2,)))  # scaffolding
_report({"jit(_l2_loss)"}, 2)  # scaffolding
