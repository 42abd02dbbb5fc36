# source: https://github.com/jax-ml/jax/issues/10046
# expect: bad-static-spec at line 33
# runtime: ERROR ValueError
# why: g marks static_argnums=(1, 3) but has only 3 positional parameters; jax 0.10.2 raises ValueError when jit is applied (in 2022 it was silently ignored).

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
import functools

try:  # scaffolding
    @functools.partial(jax.jit, static_argnums=(1, 3))
    def g(a, b, c):
        return a + b + c

    print(g(1., 2., 3.))
    _report({"jit(g)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
