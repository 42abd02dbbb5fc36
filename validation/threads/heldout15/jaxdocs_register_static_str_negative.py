# source: https://jax.readthedocs.io/en/latest/_autosummary/jax.tree_util.register_static.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: StaticStr is registered as a static pytree, so the string s is part of the cache key rather than a traced argument; the Python if on s == 'add' works and f compiles once.
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
@jax.tree_util.register_static
class StaticStr(str):
  pass

@jax.jit
def f(x, y, s):
  return x + y if s == 'add' else x - y

f(1, 2, StaticStr('add'))
_report({"jit(f)"}, 1)  # scaffolding
