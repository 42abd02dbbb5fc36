# source: https://github.com/jax-ml/jax/issues/10601
# expect: bad-static-spec at line 36
# runtime: ERROR ValueError
# why: static_argnums=(9,) points past f's two parameters; jax 0.10.2 raises ValueError when jit is applied (silently accepted in 2022, as reported).

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


from jax import jit  # scaffolding

def f(dyn, stat):
	print(dyn)
	print(stat)
	return dyn  # scaffolding: `...` in the thread

try:  # scaffolding
    jit(f, static_argnums=(9,))  # scaffolding: closing parenthesis added
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
