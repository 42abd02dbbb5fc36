# source: https://github.com/karlotness/pyqg-jax/commit/3d36557a774799afd4a6de36bfa4b041959bc116
# expect: trace-time-error at line 53
# runtime: ERROR TypeError
# why: jax.eval_shape now goes through jit, which weak-references the callable; an operator.attrgetter object cannot be weak-referenced, so the shape check in update raises TypeError.
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
import dataclasses
import operator

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class  # scaffolding: cut-down FullPseudoSpectralState
@dataclasses.dataclass(frozen=True)
class FullPseudoSpectralState:
    q: jax.Array
    dqhdt: jax.Array

    def tree_flatten(self):  # scaffolding
        return (self.q, self.dqhdt), None

    @classmethod
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(*children)

    def update(self, **kwargs) -> "FullPseudoSpectralState":
        new_values = {}
        if "state" in kwargs:
            raise ValueError(
                "do not update attribute 'state' directly, update individual fields"
            )
        for name, new_val in kwargs.items():
            # Check that shapes and dtypes match
            current_sd = jax.eval_shape(operator.attrgetter(name), self)
            if getattr(current_sd, "shape", None) != getattr(new_val, "shape", None):
                raise ValueError(f"found mismatched shapes for {name}")
            if getattr(current_sd, "dtype", None) != getattr(new_val, "dtype", None):
                raise TypeError(f"found mismatched dtypes for {name}")
            new_values[name] = new_val  # scaffolding: the q/qh/uh/vh special cases are left out
        return dataclasses.replace(self, **new_values)


@jax.jit  # scaffolding: a model step that updates the full state, as pyqg-jax's steppers do
def step(full_state):
    return full_state.update(dqhdt=-0.5 * full_state.q)


state = FullPseudoSpectralState(q=jnp.ones((2, 8, 8)), dqhdt=jnp.zeros((2, 8, 8)))  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding
        state = step(state)
    _report({"jit(step)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
