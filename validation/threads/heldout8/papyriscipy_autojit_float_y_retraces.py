# source: https://papyri.dev/project/scipy/1.17.1/scipy._lib.array_api_extra._lib._utils._helpers$jax_autojit/
# expect: changing-static at line 39
# runtime: COMPILES 3 CALLS 3
# why: jax_autojit makes every non-array argument static, so the Python float y becomes part of the cache key and each new value of y retraces and recompiles the inner jit (one compile per distinct y), which the docstring itself warns about.

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
import jax.numpy as jnp
from scipy._lib.array_api_extra._lib._utils._helpers import jax_autojit

def f(x, y: float, plus: bool):
    return x + y if plus else x - y

j2 = jax_autojit(f)

x = jnp.arange(4.0)  # scaffolding
for y in [0.5, 1.5, 2.5]:  # scaffolding
    j2(x, y, True)
_report({"jit(inner)"}, 3)  # scaffolding
