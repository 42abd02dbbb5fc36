# source: https://github.com/jax-ml/jax/issues/17197
# expect: unhashable-static at line 72
# runtime: ERROR TypeError
# why: jax.jit(a) wraps a callable @dataclass instance; dataclass(eq=True) sets __hash__ to None, and jit needs a hashable function for its cache key, so the first call raises TypeError (unhashable type: 'A'), while the plain class B works.

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
from dataclasses import dataclass
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


@dataclass
class A:
    val: jnp.ndarray

    def __call__(self, x):
        return self.val * x


class B:
    def __init__(self, val: jnp.ndarray):
        self.val = val

    def __call__(self, x):
        return self.val * x


def flatten(obj):
    return (obj.val, None)


def unflatten_a(aux_data, children):
    return A(*children)


def unflatten_b(aux_data, children):
    return B(*children)


register_pytree_node(A, flatten, unflatten_a)
register_pytree_node(B, flatten, unflatten_b)

b = B(jnp.zeros(10))
fast_call_b = jax.jit(b)
fast_call_b(1.0)

try:  # scaffolding
    a = A(jnp.zeros(10))
    fast_call_a = jax.jit(a)
    fast_call_a(1.0)
    _report({"jit(<unnamed function>)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
