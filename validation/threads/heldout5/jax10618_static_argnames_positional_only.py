# source: https://github.com/jax-ml/jax/issues/10618
# expect: bad-static-spec at line 36
# runtime: ERROR ValueError
# why: f's a is positional-only, so static_argnames=('a', 'b', 'c') cannot name it; jax 0.10.2 validates static_argnames when jit is applied and raises ValueError ('invalid argnames {a} ... positional-only'), where in 2022 a was silently left traced
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


def f(a, /, b, *, c):
	return a + b + c

static_argnames = ("a", "b", "c")
try:  # scaffolding
	jf = jax.jit(f, static_argnames=static_argnames)
	jf(1, 2, c=3)
	_report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
	print(f"ERROR {type(e).__name__}")
