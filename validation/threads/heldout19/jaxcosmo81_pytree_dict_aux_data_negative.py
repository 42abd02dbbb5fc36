# source: https://github.com/DifferentiableUniverseInitiative/jax_cosmo/issues/81
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: a dict as pytree aux_data and c.p reassigned inside jit work on jax 0.10.2: g compiles once; the odd configs come from the mutable default dict that tree_unflatten updates in place, not from a recompile or a trace error.
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

from jax import jit
from jax.tree_util import register_pytree_node_class

@register_pytree_node_class
class C:
    def __init__(self, p, config={'a': 0}):
        self.p = p
        self._config = config

    def tree_flatten(self):
        children = (self.p,)
        aux_data = self._config
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        c = cls(*children)
        c._config.update(aux_data)
        return c

def f(c):
    c.p = 1. + c.p
    return c

g = jit(f)

print(
    vars(C(0.)),
    vars(f(C(0.))),
    vars(f(C(0., {'a': 1}))),
    vars(g(C(0., {'b': 2}))),
)
_report({"jit(f)"}, 1)  # scaffolding
