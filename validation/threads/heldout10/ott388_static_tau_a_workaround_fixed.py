# source: https://github.com/ott-jax/ott/issues/388
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The workaround given in the issue: mark tau_a static (static_argnums=(2,)), so is_balanced compares Python floats at trace time; the solve compiles once per tau_a value and repeated calls with the same value hit the cache.

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
import jax
import jax.numpy as jnp


class PointCloud:  # scaffolding: stand-in for ott.geometry.pointcloud.PointCloud
  def __init__(self, x, y, epsilon=0.1):
    self.x, self.y, self.epsilon = x, y, epsilon

  @property
  def cost_matrix(self):
    return jnp.sum((self.x[:, None, :] - self.y[None, :, :]) ** 2, axis=-1)

  @property
  def shape(self):
    return self.x.shape[0], self.y.shape[0]

  @property
  def dtype(self):
    return self.x.dtype


@jax.tree_util.register_pytree_node_class
class LinearProblem:

  def __init__(
      self,
      geom,
      a=None,
      b=None,
      tau_a: float = 1.0,
      tau_b: float = 1.0
  ):
    self.geom = geom
    self._a = a
    self._b = b
    self.tau_a = tau_a
    self.tau_b = tau_b

  @property
  def a(self) -> jnp.ndarray:
    """First marginal."""
    if self._a is not None:
      return self._a
    n, _ = self.geom.shape
    return jnp.full((n,), fill_value=1.0 / n, dtype=self.dtype)

  @property
  def b(self) -> jnp.ndarray:
    """Second marginal."""
    if self._b is not None:
      return self._b
    _, m = self.geom.shape
    return jnp.full((m,), fill_value=1.0 / m, dtype=self.dtype)

  @property
  def is_balanced(self) -> bool:
    """Whether the problem is balanced."""
    return self.tau_a == 1.0 and self.tau_b == 1.0

  @property
  def dtype(self) -> jnp.dtype:
    """The data type of the geometry."""
    return self.geom.dtype

  def tree_flatten(self):  # noqa: D102
    return ([self.geom, self._a, self._b], {
        "tau_a": self.tau_a,
        "tau_b": self.tau_b
    })

  @classmethod
  def tree_unflatten(  # noqa: D102
      cls, aux_data, children
  ) -> "LinearProblem":
    return cls(*children, **aux_data)


class _Output:  # scaffolding
  def __init__(self, reg_ot_cost):
    self.reg_ot_cost = reg_ot_cost


class Sinkhorn:  # scaffolding: stand-in for ott.solvers.linear.sinkhorn.Sinkhorn
  def __call__(self, prob, iterations=20):
    eps = prob.geom.epsilon
    cost = prob.geom.cost_matrix
    f = jnp.zeros(prob.geom.shape[0])
    g = jnp.zeros(prob.geom.shape[1])
    if prob.is_balanced:
      rho_a = rho_b = 1.0
    else:
      rho_a, rho_b = prob.tau_a, prob.tau_b
    for _ in range(iterations):
      f = rho_a * -eps * jax.nn.logsumexp((g[None, :] - cost) / eps, b=prob.b[None, :], axis=1)
      g = rho_b * -eps * jax.nn.logsumexp((f[:, None] - cost) / eps, b=prob.a[:, None], axis=0)
    return _Output(jnp.sum(f * prob.a) + jnp.sum(g * prob.b))


def mysink(x, y, tau_a):
    geom = PointCloud(x,y)
    prob = LinearProblem(geom=geom,tau_a=tau_a)
    return Sinkhorn()(prob).reg_ot_cost

x = jax.random.uniform(jax.random.PRNGKey(0), (12,3))
y = jax.random.uniform(jax.random.PRNGKey(1), (16,3))

# a workaround is having tau_a as a static argument, but causes recompilation for different values
sink = jax.jit(mysink, static_argnums=(2,))  # scaffolding: the workaround's jit, kept for two calls
sink(x,y,1.0)
sink(x,y,1.0)  # scaffolding: same tau_a again, cache hit
_report({"jit(mysink)"}, 2)  # scaffolding
