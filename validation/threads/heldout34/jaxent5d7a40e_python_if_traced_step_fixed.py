# source: https://github.com/alexisiddiqui/JAX-ENT/commit/5d7a40ee8d29c224c62ad929cbceffbd6e269c57
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The fix removes both Python conditionals on traced values from _step (learning-rate warm-up and oscillation handling move to the Python loop), so the jitted step traces and compiles once.

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
from typing import Any, NamedTuple, Optional

import jax
import jax.numpy as jnp
import optax
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class MutableLearningRate:
    current_lr: float

    def __init__(self, initial_lr: float):
        self.current_lr = initial_lr

    def __call__(self, step=None):
        return self.current_lr

    def update(self, new_lr: float):
        self.current_lr = new_lr

    def tree_flatten(self):
        children = (self.current_lr,)
        aux_data = {}
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children[0])


class OptimizationState(NamedTuple):  # (jaxent/src/opt/base.py, trimmed)
    params: Any
    opt_state: Any
    step: int = 0
    losses: Any = None
    gradients: Any = None

    def update(self, new_params, new_opt_state, new_losses, new_gradients=None, step=None):
        return OptimizationState(
            params=new_params,
            opt_state=new_opt_state,
            step=(self.step + 1) if step is None else step,
            losses=new_losses if new_losses is not None else self.losses,
            gradients=new_gradients if new_gradients is not None else self.gradients,
        )


@register_pytree_node_class
class OptaxOptimizer:  # (jaxent/src/opt/optimiser.py, trimmed: history, EMA, masks, simplex)
    def __init__(self, learning_rate=1e-2, initial_steps=2, plateau_denominator=2.0,
                 model_parameters_lr_scale=0.1):
        self.learning_rate = learning_rate
        self.initial_learning_rate = learning_rate
        self.initial_steps = initial_steps
        self.plateau_denominator = plateau_denominator
        self.model_parameters_lr_scale = model_parameters_lr_scale
        self.lr_schedule = MutableLearningRate(learning_rate)
        self.model_lr_schedule = MutableLearningRate(learning_rate * model_parameters_lr_scale)
        self.optimizer = optax.sgd(learning_rate)

    def tree_flatten(self):
        children = (self.lr_schedule, self.model_lr_schedule)
        aux_data = (self.learning_rate, self.initial_steps, self.plateau_denominator,
                    self.model_parameters_lr_scale, self.optimizer)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        self = cls.__new__(cls)
        self.lr_schedule, self.model_lr_schedule = children
        (self.learning_rate, self.initial_steps, self.plateau_denominator,
         self.model_parameters_lr_scale, self.optimizer) = aux_data
        self.initial_learning_rate = self.learning_rate
        return self

    def initialise(self, params, simulation, data_targets, loss_functions, indexes):
        opt_state = self.optimizer.init(params)
        # now try to jit the step function
        self.step = jax.jit(
            self._step,
            donate_argnames=("state",),
            static_argnames=(
                "loss_functions",
                "indexes",
            ),
        )
        return OptimizationState(params=params, opt_state=opt_state)

    @staticmethod
    def _step(
        optimizer: "OptaxOptimizer",
        state: OptimizationState,
        simulation,
        data_targets,
        loss_functions,
        indexes,
    ):
        """Perform one optimization step.

        This function is designed to be pure (no Python-level side effects on JAX
        traced values) so it is compatible with ``jax.jit`` and ``jax.vmap``.

        Learning-rate warmup and oscillation-based LR adaptation are intentionally
        handled at the Python level in :func:`_optimise`, where ``step`` is a
        concrete Python integer and mutations of the optimizer's learning-rate
        schedule are safe.
        """

        def loss_fn(params):
            # Update simulation parameters for gradient computation
            losses = compute_loss(simulation, params, data_targets, indexes, loss_functions)
            return losses, losses

        # Compute gradients with value and grad to get both loss and gradients
        loss_val_losses, grads = jax.value_and_grad(loss_fn, allow_int=True, has_aux=True)(
            state.params
        )
        loss_value, losses = loss_val_losses
        masked_grads = grads  # (gradient masks trimmed)

        # Get optimizer updates
        updates, new_opt_state = optimizer.optimizer.update(masked_grads, state.opt_state, state.params)

        # Apply updates
        updated_params = optax.apply_updates(state.params, updates)  # type: ignore

        # Create new state
        new_state = state.update(updated_params, new_opt_state, losses, masked_grads)
        return new_state, loss_value, new_state, simulation


def compute_loss(simulation, params, data_targets, indexes, loss_functions):  # scaffolding: stand-in forward model + L2 loss
    pred = simulation @ params["frame_weights"]
    return jnp.mean((pred - data_targets[0]) ** 2)


simulation = jnp.linspace(0.0, 1.0, 24).reshape(6, 4)  # scaffolding
data_targets = (jnp.ones(6),)  # scaffolding
optimizer = OptaxOptimizer()  # scaffolding
state = optimizer.initialise({"frame_weights": jnp.full(4, 0.25)}, simulation, data_targets, ("l2",), (0,))  # scaffolding
try:  # scaffolding
    # initialise() test-calls the freshly jitted step once, as the repository does
    _ = optimizer.step(optimizer, state, simulation, data_targets, loss_functions=("l2",), indexes=(0,))  # scaffolding
    _report({"jit(_step)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
