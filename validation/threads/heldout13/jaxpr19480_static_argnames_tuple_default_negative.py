# source: https://github.com/jax-ml/jax/pull/19480
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: y is a keyword-only static argument whose value is a hashable tuple iterated in Python under jit; repeated calls with an equal tuple hit the cache, so f compiles once.

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
from functools import partial

@partial(jax.jit, static_argnames=['y'])
def f(x, *, y=(1, 2)):
  for val in y:
    x *= val
  return x

x = jax.numpy.arange(4)
print(f(x, y=(1, 2)))
print(f(x + 1, y=(1, 2)))  # scaffolding
print(f(x + 2, y=(1, 2)))  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
