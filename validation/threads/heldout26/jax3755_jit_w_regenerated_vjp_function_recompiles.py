# source: https://github.com/jax-ml/jax/issues/3755
# expect: changing-static at line 72
# runtime: COMPILES 3 CALLS 3
# why: each api.vjp(g, x) returns a cotangent function whose pytree aux data holds a fresh functools.partial/jaxpr compared by identity, so the jitted w taking it recompiles for every regenerated vjp (3 compiles for 3 calls, 'traces of w: 3' printed).
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

import jax as api  # scaffolding: jax.api is gone; custom_vjp and vjp live on jax
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding
import numpy as np  # scaffolding


class CustomVJPTest:  # scaffolding: stand-in for the test class of tests/api_test.py
  def assertAllClose(self, a, b):  # scaffolding
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)  # scaffolding

  def test_nestable_vjp(self):
    # Verify that https://github.com/google/jax/issues/3667 is resolved.
    def f(x):
        return x ** 2

    @api.custom_vjp
    def g(x):
        return f(x)

    def g_fwd(x):
        y, f_vjp = api.vjp(f, x)
        return y, f_vjp

    def g_bwd(f_vjp, y_bar):
        return f_vjp(y_bar)

    g.defvjp(g_fwd, g_bwd)

    # Check that VJP can be nested in simple situations.  For this to pass,
    # vjp has to return a PyTree.
    _, g_vjp = api.vjp(g, 1.0)
    y, = g_vjp(1.0)
    self.assertAllClose(y, jnp.array(2.0))

    # Check that VJP can be nested in complex situations.  For this to pass,
    # vjp can't treat the closed-over tracer x as a static argument.
    @jit
    def z(x):
        _, g_vjp = api.vjp(g, x)
        return g_vjp
    y, = z(1.0)(3.0)
    self.assertAllClose(y, jnp.array(6.0))

    # Check that VJP functions don't induce recompilation.
    compiled = 0
    @jit
    def w(this_g_vjp):
        nonlocal compiled
        compiled += 1  # scaffolding: the stored thread ends at 'compiled +='
        return this_g_vjp(1.0)  # scaffolding
    for x in (1.0, 2.0, 3.0):  # scaffolding: regenerate the cotangent function and pass it to w each time
        _, this_g_vjp = api.vjp(g, x)  # scaffolding
        w(this_g_vjp)  # scaffolding
    print("traces of w:", compiled)  # scaffolding


try:  # scaffolding
  CustomVJPTest().test_nestable_vjp()  # scaffolding
  _report({"jit(w)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
