# source: https://docs.jax.dev/en/latest/_autosummary/jax.experimental.checkify.check_error.html
# expect: jit-in-loop-or-body at line 35
# runtime: COMPILES 3 CALLS 3
# why: with_inner_jit builds a new checkify.checkify(f) and wraps it in jax.jit on every call, so each call compiles jit(checked_fun) again (3 compiles for the 3 calls of the example, same input type).
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


import jax
from jax.experimental import checkify
def f(x):
  checkify.check(x>0, "must be positive!")
  return x
def with_inner_jit(x):
  checked_f = checkify.checkify(f)
  # a checkified function can be jitted
  error, out = jax.jit(checked_f)(x)
  checkify.check_error(error)
  return out
_ = with_inner_jit(1)  # no failed check
try:  # scaffolding
    with_inner_jit(-1)
except Exception as err:  # scaffolding
    print(f"expected check failure: {type(err).__name__}")  # scaffolding
# can re-checkify
error, _ = checkify.checkify(with_inner_jit)(-1)
_report({"jit(checked_fun)"}, 3)  # scaffolding
