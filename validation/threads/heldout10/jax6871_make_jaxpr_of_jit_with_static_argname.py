# source: https://github.com/jax-ml/jax/issues/6871
# expect: nested-jit at line 38
# runtime: ERROR ValueError
# why: make_jaxpr traces every argument of the jitted jit_func, so the value for y, which jit_func marks static, arrives as a tracer; the inner jit cannot hash it and raises (non-hashable static argument), although calling jit_func directly works.

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


def my_func(x, y):
  return x + y

jit_func = jax.jit(my_func, static_argnames={'y'})
print(jit_func(1, 2))  # scaffolding: called directly, y is static and this works
try:  # scaffolding
  jax.make_jaxpr(jit_func)(1, 2)
  _report({"jit(my_func)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
