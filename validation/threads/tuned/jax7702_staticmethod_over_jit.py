# source: https://github.com/jax-ml/jax/issues/7702
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jakevdp's workaround, @staticmethod above @jax.jit, works: Foo.foo compiles once for 2 calls.

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

class Foo:
  @staticmethod
  @jax.jit
  def foo(x):
    return x * 2

Foo.foo(1.0)  # scaffolding
Foo.foo(2.0)  # scaffolding
_report({"jit(foo)"}, 2)
