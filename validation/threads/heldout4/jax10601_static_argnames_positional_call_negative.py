# source: https://github.com/jax-ml/jax/issues/10601
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: static_argnames=('stat',) on a positional-or-keyword parameter also covers a positional call: jf(1, 2) prints a tracer for dyn and the Python int 2 for stat, and f compiles once for two calls with the same static value.

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

jf = jit(f, static_argnames=("stat",))  # scaffolding: closing parenthesis added
jf(1, 2)
jf(1, 2)  # scaffolding: the same static value again hits the cache
_report({"jit(f)"}, 2)  # scaffolding
