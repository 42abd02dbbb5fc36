# source: https://github.com/jax-ml/jax/issues/24204
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The same dataclass with the array registered as a data field: both objects hit one compiled entry.
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
jax.tree_util.register_dataclass(Foo, data_fields=['a'], meta_fields=[])  # fixed: the array is a data field

func = jax.jit(lambda x: x)
foo1 = Foo(jax.numpy.arange(4))
func(foo1)  # no error

foo2 = Foo(jax.numpy.arange(4))
func(foo2)
_report({"jit(<lambda>)"}, 2)  # scaffolding
