# source: https://github.com/Impure-King/base-tensorwrap/blob/66bbd60eae1dc87f19271cf52d5ac9ea91dbf79d/tensorwrap/nn/losses/metrics.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: Accuracy.__call__ is @jit with `if self.logits:`; self is a registered pytree whose whole __dict__ is aux data, so the branch is on a static Python bool and the metric compiles once.

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
from abc import ABCMeta

import jax.numpy as jnp
from jax import jit
from jax.tree_util import register_pytree_node_class


# --- tensorwrap/module.py at the same commit (docstrings cut) ---
@register_pytree_node_class
class Module(metaclass=ABCMeta):

    def __init__(self) -> None:
        """Helps instantiate the class and assign a self.trainable_variables to subclass."""
        self.trainable_variables = {}
    @classmethod
    def __init_initialize__(cls):
        # function to replace __init__ temporarily:
        def init_rep(self):
            self.trainable_variables = {}
        prev_init = cls.__init__ # Storing __init__ functionality
        
        # Emptying and creating a new instance
        cls.__init__ = init_rep
        instance = cls()

        # Reverting changes and returning instance
        cls.__init__ = prev_init

        return instance

    def __init_subclass__(cls) -> None:
        """Used to convert and register all the subclasses into Pytrees."""
        register_pytree_node_class(cls)

    def call(self, *args, **kwargs):
        """Acts as an abstract method to force all implementation to occur in the `call` method."""
        pass

    def tree_flatten(self):
        leaves = {}
        # for key in self.trainable_variables:
        #     leaves[key] = self.trainable_variables[key]
        
        # Removing trainable_variables:
        aux_data = vars(self).copy()
        # aux_data.pop("trainable_variables")

        return leaves, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        instance = cls.__init_initialize__()
        instance.trainable_variables = children
        vars(instance).update(aux_data)
        return instance


class Loss(Module):  # scaffolding: tensorwrap.nn.losses.base.Loss reduced to the base class
    pass


# --- tensorwrap/nn/losses/metrics.py ---
class Accuracy(Loss):
    def __init__(self, from_logits = True) -> None:
        super().__init__()
        self.logits = from_logits
    
    
    @jit
    def __call__(self, y_true, y_pred):
        """Computes the accuracy metric."""
        if self.logits:
            y_pred = jnp.argmax(y_pred, axis=-1)

        correct = jnp.sum(y_true == y_pred)
        total = y_true.shape[0]
        return correct / total * 100


# scaffolding: the metric used per batch, as Model.fit uses its metric
metric = Accuracy()
y_true = jnp.array([1, 0, 1, 1])
for step in range(4):
    y_pred = jnp.array([[0.2, 0.8], [0.9, 0.1], [0.6, 0.4], [0.3, 0.7]]) * (step + 1)
    print(metric(y_true, y_pred))
_report({"jit(__call__)"}, 4)
