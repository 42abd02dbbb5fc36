# source: https://github.com/google/jaxopt/issues/422
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with check_bracket=False (the maintainer's answer) no Python bool is taken of a traced value; the vmapped root find compiles its lax.while_loop once and returns the roots.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import jaxopt  # scaffolding


def F(x, factor):
  return factor * x ** 3 - x - 2

def root(factor):
  bisec = jaxopt.Bisection(optimality_fun=F, lower=1, upper=2, check_bracket=False)
  return bisec.run(factor=factor).params

print(jax.vmap(root)(jnp.array([2.0, 2.0])))
_report({"jit(while)"}, 1)  # scaffolding
