# source: https://github.com/jax-ml/jax/issues/7426
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The flag is marked static on the inner jit, the alternative froystig names ('jit offers an explicit static_argnums option').
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

def f(x, s): return x if s else x + 1.
def g(x): return jax.jit(f, static_argnums=1)(x, False)  # fixed: the flag is static

print(g(1.))
print(g(2.))  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
