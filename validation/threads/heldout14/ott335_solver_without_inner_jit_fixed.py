# source: https://github.com/ott-jax/ott/pull/335
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR's version: __call__ calls iterations directly (the jit argument is removed), leaving compilation to the caller; one compile for three calls.

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
from typing import Any, NamedTuple, Optional

import jax
import jax.numpy as jnp


class BarycenterProblem(NamedTuple):  # scaffolding: stand-in for ott's BarycenterProblem
    flattened_y: jnp.ndarray
    flattened_b: jnp.ndarray


class BarycenterState(NamedTuple):
  costs: Optional[jnp.ndarray] = None
  linear_convergence: Optional[jnp.ndarray] = None
  errors: Optional[jnp.ndarray] = None
  x: Optional[jnp.ndarray] = None
  a: Optional[jnp.ndarray] = None

  def set(self, **kwargs: Any) -> 'BarycenterState':
    """Return a copy of self, possibly with overwrites."""
    return self._replace(**kwargs)


@jax.tree_util.register_pytree_node_class
class WassersteinBarycenter:
  """A Continuous Wasserstein barycenter solver, built on generic template."""

  def __init__(self, max_iterations=5):  # scaffolding: was_solver.WassersteinSolver
    self.max_iterations = max_iterations

  def tree_flatten(self):  # scaffolding
    return (), (self.max_iterations,)

  @classmethod
  def tree_unflatten(cls, aux, children):  # scaffolding
    return cls(*aux)

  def __call__(
      self,
      bar_prob: BarycenterProblem,
      bar_size: int = 100,
      x_init: Optional[jnp.ndarray] = None,
      rng: int = 0
  ) -> BarycenterState:
    # TODO(michalk8): no reason for iterations to be outside this class
    return iterations(self, bar_size, bar_prob, x_init, rng)

  def init_state(
      self,
      bar_prob: BarycenterProblem,
      bar_size: int,
      x_init: Optional[jnp.ndarray] = None,
      # TODO(michalk8): change the API to pass the PRNG key directly
      rng: int = 0,
  ) -> BarycenterState:
    if x_init is not None:
      assert bar_size == x_init.shape[0]
      x = x_init
    else:
      # sample randomly points in the support of the y measures
      indices_subset = jax.random.choice(
          jax.random.PRNGKey(rng),
          a=bar_prob.flattened_y.shape[0],
          shape=(bar_size,),
          replace=False,
          p=bar_prob.flattened_b
      )
      x = bar_prob.flattened_y[indices_subset, :]

    # TODO(cuturi) expand to non-uniform weights for barycenter.
    a = jnp.ones((bar_size,)) / bar_size
    num_iter = self.max_iterations
    errors = None
    return BarycenterState(
        -jnp.ones((num_iter,)), -jnp.ones((num_iter,)), errors, x, a
    )

  def output_from_state(self, state: BarycenterState) -> BarycenterState:
    # TODO(michalk8): create an output variable to match rest of the framework
    return state


def iterations(
    solver: WassersteinBarycenter, bar_size: int,
    bar_prob: BarycenterProblem, x_init: jnp.ndarray,
    rng: int
) -> BarycenterState:
  """Jittable Wasserstein barycenter outer loop."""

  def body_fn(iteration, state: BarycenterState) -> BarycenterState:
    # scaffolding: stand-in for state.update (one step of the barycenter of barycenters)
    x_new = 0.5 * state.x + 0.5 * jnp.mean(bar_prob.flattened_y, axis=0)
    return state.set(x=x_new, costs=state.costs.at[iteration].set(jnp.sum(x_new ** 2)))

  # scaffolding: fixed_point_loop.fixpoint_iter replaced by a fori_loop
  state = jax.lax.fori_loop(
      0, solver.max_iterations, body_fn,
      solver.init_state(bar_prob, bar_size, x_init, rng)
  )

  return solver.output_from_state(state)


# scaffolding: a user jits their own function that calls the solver (its default jit=True),
# for three batches of point clouds
solver = WassersteinBarycenter()


@jax.jit
def fit_barycenter(ys, bs):
  bar_prob = BarycenterProblem(flattened_y=ys, flattened_b=bs)
  return solver(bar_prob, bar_size=10).x


calls = 0
for seed in range(3):
  ys = jax.random.normal(jax.random.PRNGKey(seed), (3 * 20, 2))
  bs = jnp.ones((3 * 20,)) / (3 * 20)
  x = fit_barycenter(ys, bs)
  calls += 1
_report({"jit(fit_barycenter)", "jit(iterations)"}, calls)
