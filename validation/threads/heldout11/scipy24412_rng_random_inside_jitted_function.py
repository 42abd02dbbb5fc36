# source: https://github.com/scipy/scipy/issues/24412
# expect: stale-closure at line 35
# runtime: COMPILES 1 CALLS 2
# why: under jax_jit=True the function is jitted with the NumPy Generator as a static argument, so rng.random() runs once at trace time and its value is baked into the compiled function; the second call with the same rng returns the same "random" number.

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
import jax.numpy as xp  # scaffolding: the array namespace of the JAX test run
import numpy as np


def get_random_value(a, rng):
    return rng.random()


get_random_value = jax.jit(get_random_value, static_argnames="rng")  # scaffolding: jax_jit=True

rng = np.random.default_rng(34982345)
a = xp.asarray(1.)
x = get_random_value(a, rng)
y = get_random_value(a, rng)
print(float(x), float(y), "same draw:", bool(np.allclose(x, y)))  # scaffolding: assert not np.allclose(x, y)
_report({"jit(get_random_value)"}, 2)  # scaffolding
