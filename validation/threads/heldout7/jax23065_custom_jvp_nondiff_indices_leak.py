# source: https://github.com/jax-ml/jax/issues/23065
# expect: bad-static-spec at line 35
# runtime: ERROR Exception
# why: The integer index array is passed through nondiff_argnums of a jitted custom_jvp function; under jacobian the tracer for it is kept alive past its trace and the tracer-leak checker raises.

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
from functools import partial

jax.config.update("jax_check_tracer_leaks", True)

@partial(jax.custom_jvp, nondiff_argnums=(1,))
def f(x, index):
  return x[indices]

@f.defjvp
def f_jvp(primals, tangents):
  x, indices = primals
  x_dot, _ = tangents
  return f(x, indices), x_dot[indices]

f = jax.jit(f)

x = jnp.arange(10.0)
indices = jnp.array([1, 3, 5])

try:  # scaffolding
    jax.jacobian(f)(x, indices)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
