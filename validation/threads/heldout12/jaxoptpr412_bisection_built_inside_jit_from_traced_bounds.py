# source: https://github.com/google/jaxopt/pull/412
# expect: trace-time-error at line 59
# runtime: ERROR TypeError
# why: a Bisection solver is constructed inside the jitted function from lower/upper bounds computed from the traced input, so its bound run method carries jit tracers in its closure and jacrev of the jitted function fails (TypeError: no constant handler for a DynamicJaxprTracer).

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

from jaxopt import projection
from jaxopt import Bisection

import numpy as onp


# optimality_fun(params, hyperparams, data)
def _optimality_fun_proj_simplex(tau, x, s):
  # optimality_fun(tau, x, s) is a decreasing function of tau on
  # [lower, upper] since the derivative w.r.t. tau is negative.
  return jnp.sum(jnp.maximum(x - tau, 0)) - s


def _threshold_proj_simplex(x, s):
  # tau = max(x) => tau >= x_i for all i
  #              => x_i - tau <= 0 for all i
  #              => maximum(x_i - tau, 0) = 0 for all i
  #              => optimality_fun(tau, x, s) = -s <= 0
  upper = jax.lax.stop_gradient(jnp.max(x))

  # tau' = min(x) => tau' <= x_i for all i
  #               => 0 <= x_i - tau' for all_i
  #               => maximum(x_i - tau', 0) >= 0
  #               => optimality_fun(tau, x, s) >= 0
  # where tau = tau' - s / len(x)
  lower = jax.lax.stop_gradient(jnp.min(x)) - s / len(x)

  bisect = Bisection(optimality_fun=_optimality_fun_proj_simplex,
                     lower=lower, upper=upper, check_bracket=False)
  return bisect.run(None, x, s).params


def _projection_simplex_bisect(x, s=1.0):
  return jnp.maximum(x - _threshold_proj_simplex(x, s), 0)


class _TestCase:  # scaffolding: stand-in for jaxopt._src.test_util.JaxoptTestCase
  def assertArraysAllClose(self, a, b, atol=None):
    assert onp.allclose(a, b, atol=atol)


class BisectionTest(_TestCase):

  def test_bisect(self):
    rng = onp.random.RandomState(0)

    jitted_fun = jax.jit(_projection_simplex_bisect)

    for _ in range(10):
      x = jnp.array(rng.randn(50).astype(onp.float32))
      p = projection.projection_simplex(x)
      p2 = _projection_simplex_bisect(x)
      p3 = jitted_fun(x)
      self.assertArraysAllClose(p, p2, atol=1e-4)
      self.assertArraysAllClose(p, p3, atol=1e-4)

      J = jax.jacrev(projection.projection_simplex)(x)
      J2 = jax.jacrev(_projection_simplex_bisect)(x)
      J3 = jax.jacrev(jitted_fun)(x)
      self.assertArraysAllClose(J, J2, atol=1e-5)
      self.assertArraysAllClose(J, J3, atol=1e-5)


try:  # scaffolding
  BisectionTest().test_bisect()
  print("no error")  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
