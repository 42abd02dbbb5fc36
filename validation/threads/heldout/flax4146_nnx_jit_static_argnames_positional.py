# source: https://github.com/google/flax/issues/4146
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: Reported on flax 0.8.5 (nnx.jit ignored static_argnames for a positionally passed argument, TracerBoolConversionError); on flax 0.12.8 nnx.jit honours static_argnames for positional arguments, so `cond` is static and f compiles once per value of cond.

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
from functools import partial  # scaffolding
from flax import nnx  # scaffolding


@partial(nnx.jit, static_argnames=("cond",))
def f(x, cond):
    if cond:
        return x
    else:
        return x + 1

try:  # scaffolding
    f(jnp.array(1), True)
    f(jnp.array(1), True)  # scaffolding
    f(jnp.array(1), False)  # scaffolding
    _report({"jit(f)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
