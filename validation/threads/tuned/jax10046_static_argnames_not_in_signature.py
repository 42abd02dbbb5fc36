# source: https://github.com/jax-ml/jax/issues/10046
# expect: bad-static-spec at line 33
# runtime: ERROR ValueError
# why: f marks static_argnames=('b', 'd') but has no parameter d; jax 0.10.2 validates this and raises ValueError when jit is applied (in 2022 it was silently ignored, which the issue proposed to warn about).

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
    @functools.partial(jax.jit, static_argnames=('b', 'd'))
    def f(a, b, c):
        return a + b + c

    print(f(1., 2., 3.))
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
