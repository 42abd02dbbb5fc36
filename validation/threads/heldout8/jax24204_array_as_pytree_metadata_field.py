# source: https://github.com/jax-ml/jax/issues/24204
# expect: unhashable-static at line 35
# runtime: ERROR ValueError
# why: A jax.Array is registered as a pytree metadata (static) field, so the jit cache must hash and compare arrays; the second equal-shaped object fails the equality check.
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
from dataclasses import dataclass

@dataclass
class Foo:
  a: jax.Array
jax.tree_util.register_dataclass(Foo, data_fields=[], meta_fields=['a'])

func = jax.jit(lambda x: x)
foo1 = Foo(jax.numpy.arange(4))
func(foo1)  # no error

foo2 = Foo(jax.numpy.arange(4))
try:  # scaffolding
    func(foo2)  # error during check of foo1 == foo2
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
