# source: https://github.com/jax-ml/jax/issues/28659
# expect: unhashable-static at line 45
# runtime: ERROR ValueError
# why: tree_flatten returns the NumPy array y as aux_data (static metadata of the jit cache key); once an equal-but-distinct array has to be compared with a cached one, jit raises ValueError.

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
import dataclasses

import jax
import jax.numpy as jnp
import jax.tree_util
import numpy as np


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class HasArray:
    x: object
    y: np.ndarray
    # y: set

    def tree_flatten(self):
        return (self.x,), (self.y,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (x,) = children
        (y,) = aux_data
        return cls(x, y)


@jax.jit
def f(x: HasArray):
    return x.x + sum(x.y)


def test_bug():
    N = 2
    for n in range(N):
        f(
            HasArray(
                x=jnp.array([1] * n),
                y=np.array([1, 2, 3]),
                # y={1, 2, 3},
            )
        )


try:  # scaffolding
    test_bug()
    test_bug()  # second run
    _report({"jit(f)"}, 4)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
