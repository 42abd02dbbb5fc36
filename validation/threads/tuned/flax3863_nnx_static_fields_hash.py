# source: https://github.com/google/flax/issues/3863
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: Reported on flax 0.8.2 (static fields of an nnx pytree Module left out of the treedef hash, so f traced once and printed 1 for both objects); on flax 0.12.8 the static field x is part of the treedef, so f(d) retraces and prints 2, and f(c) hits the first cache entry.

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
from flax import nnx  # scaffolding: was from flax.experimental import nnx
from jax import jit
from jax.tree import flatten


class C(nnx.Module):  # scaffolding: was C(nnx.Module, experimental_pytree=True)
    def __init__(self, x):
        self.x = x


c = C(1)
d = C(2)

values, tree, = flatten(c)
valuesd, treed, = flatten(d)


@jit
def f(x):
    print(x.x)


print(hash(tree), hash(treed), tree, treed, values, valuesd)
f(c)
f(d)
f(c)
_report({"jit(f)"}, 3)  # scaffolding
