# source: https://github.com/phlippe/jax_trainer/pull/3
# expect: shape-churn at line 162
# runtime: COMPILES 2 CALLS 3
# why: the state starts with mutable_variables as a FrozenDict (init freezes the variables) but train_step stores the plain dict that model.apply returns, so the second call sees a different pytree structure and train_step compiles twice.

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
from typing import Any, NamedTuple, Optional, Sequence  # scaffolding

import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp
import optax
from flax.core import FrozenDict, freeze, unfreeze
from flax.training import train_state
from jax import random


class Batch(NamedTuple):  # scaffolding
    input: Any  # scaffolding
    target: Any  # scaffolding

    @property  # scaffolding
    def size(self):  # scaffolding
        return self.input.shape[0]  # scaffolding


class Net(nn.Module):  # scaffolding: stand-in model with batch statistics
    @nn.compact  # scaffolding
    def __call__(self, x, train=True):  # scaffolding
        x = nn.Dense(4)(x)  # scaffolding
        return nn.BatchNorm(use_running_average=not train)(x)  # scaffolding


class TrainState(train_state.TrainState):
    # A simple extension of TrainState to also include mutable variables
    # like batch statistics. If a model has no mutable vars, it is None
    mutable_variables: Any = None
    # You can further extend the TrainState by any additional part here
    # For example, rng to keep for init, dropout, etc.
    rng: Any = None


class TrainerModule:
    def __init__(self, exmp_input):  # scaffolding: config handling dropped
        self.model = Net()  # scaffolding
        self.init_model(exmp_input)  # scaffolding
        self.init_optimizer()  # scaffolding
        self.train_step = jax.jit(self.create_training_function())  # scaffolding: create_jitted_functions

    def init_model(self, exmp_input):
        """Creates an initial training state with newly generated network parameters."""
        # Prepare PRNG and input
        model_rng = random.PRNGKey(0)
        model_rng, init_rng = random.split(model_rng)
        # Run model initialization
        variables = self.run_model_init(exmp_input, init_rng)
        if isinstance(variables, FrozenDict):
            mutable_variables, params = variables.pop("params")
        else:
            params = variables.pop("params")
            mutable_variables = variables
        if len(mutable_variables) == 0:
            mutable_variables = None
        # Create default state. Optimizer is initialized later
        self.state = TrainState(
            step=0,
            apply_fn=self.model.apply,
            params=params,
            mutable_variables=mutable_variables,
            rng=model_rng,
            tx=None,
            opt_state=None,
        )

    def get_model_rng(self, rng):
        return {"params": rng}

    def run_model_init(self, exmp_input, init_rng):
        rngs = self.get_model_rng(init_rng)
        exmp_input = exmp_input.input  # scaffolding: batch_to_input
        variables = self.model.init(rngs, exmp_input, train=True)
        if not isinstance(variables, FrozenDict):
            variables = freeze(variables)
        return variables

    def init_optimizer(self):
        optimizer = optax.adam(1e-3)  # scaffolding: OptimizerBuilder
        # Initialize training state
        self.state = TrainState.create(
            apply_fn=self.state.apply_fn,
            params=self.state.params,
            mutable_variables=self.state.mutable_variables,
            tx=optimizer,
            rng=self.state.rng,
        )

    def loss_function(self, params, state, batch, rng, train=True):  # scaffolding: abstract in the trainer
        out, mutable_vars = self.model_apply(params, state, batch.input, rng, train=train)  # scaffolding
        loss = jnp.mean((out - batch.target) ** 2)  # scaffolding
        return loss, (mutable_vars, {})  # scaffolding

    def model_apply(
        self,
        params: Any,
        state: TrainState,
        input: Any,
        rng,
        train: bool = True,
        mutable: Optional[Sequence[str]] = None,
        **kwargs,
    ):
        """The model apply function that can be used in the loss function for simplification."""
        rngs = self.get_model_rng(rng)
        variables = {"params": params}
        mutable_keys = [] if mutable is None else mutable
        if state.mutable_variables is not None:
            variables.update(
                {k: state.mutable_variables[k] for k in state.mutable_variables.keys()}
            )
            if train:
                mutable_keys += list(state.mutable_variables.keys())
        if len(mutable_keys) == 0:
            mutable_keys = False
        out = state.apply_fn(
            variables, input, train=train, rngs=rngs, mutable=mutable_keys, **kwargs
        )
        if mutable_keys is not False:
            out, mutable_vars = out
        else:
            mutable_vars = None
        return out, mutable_vars

    def create_training_function(self):
        def train_step(state, batch, metrics):
            next_rng, step_rng = random.split(state.rng)
            loss_fn = lambda params: self.loss_function(params, state, batch, step_rng, train=True)
            ret, grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
            loss, mutable_vars, step_metrics = ret[0], *ret[1]
            step_metrics["loss"] = loss
            state = state.apply_gradients(
                grads=grads, mutable_variables=mutable_vars, rng=next_rng
            )
            metrics = {"loss": metrics["loss"] + step_metrics["loss"]}  # scaffolding: update_metrics
            return state, metrics

        return train_step


key = random.PRNGKey(1)  # scaffolding
batches = [Batch(random.normal(random.fold_in(key, i), (8, 3)), jnp.zeros((8, 4))) for i in range(3)]  # scaffolding
trainer = TrainerModule(batches[0])  # scaffolding
train_metrics = {"loss": jnp.zeros(())}  # scaffolding
calls = 0  # scaffolding
for batch in batches:  # scaffolding: train_epoch
    trainer.state, train_metrics = trainer.train_step(trainer.state, batch, train_metrics)  # scaffolding
    print(type(trainer.state.mutable_variables).__name__)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(train_step)"}, calls)  # scaffolding
