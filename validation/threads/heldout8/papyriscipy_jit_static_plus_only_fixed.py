# source: https://papyri.dev/project/scipy/1.17.1/scipy._lib.array_api_extra._lib._utils._helpers$jax_autojit/
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: j1 marks only the bool plus as static, so y is traced as a weak-typed scalar and the three calls with different y values share one compile.

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

def f(x, y: float, plus: bool):
    return x + y if plus else x - y

j1 = jax.jit(f, static_argnames="plus")

x = jnp.arange(4.0)  # scaffolding
for y in [0.5, 1.5, 2.5]:  # scaffolding
    j1(x, y, plus=True)  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
