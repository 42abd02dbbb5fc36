# source: https://github.com/Toni-SM/skrl/pull/245
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the scheduled learning rate is passed each step into the jitted _step_with_scale as a traced scale; it starts as the config's Python float and becomes a jax array after `self._learning_rate *= self.scheduler(timestep)`, but both are weak-typed float32 scalars, so the step compiles once for all updates.
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
from typing import Optional  # scaffolding
import functools

import flax
import jax
import jax.numpy as jnp  # scaffolding
import optax


@functools.partial(jax.jit, static_argnames=("transformation"))
def _step_with_scale(transformation, grad, state, state_dict, scale):
    # optax transform
    params, optimizer_state = transformation.update(grad, state, state_dict.params)
    # custom scale
    # https://optax.readthedocs.io/en/latest/api/transformations.html#optax.scale
    params = jax.tree_util.tree_map(lambda params: scale * params, params)
    # apply transformation
    params = optax.apply_updates(state_dict.params, params)
    return optimizer_state, state_dict.replace(params=params)


class Optimizer(flax.struct.PyTreeNode):
    transformation: optax.GradientTransformation = flax.struct.field(pytree_node=False)
    state: optax.OptState = flax.struct.field(pytree_node=True)

    def step(self, grad, model, lr: Optional[float] = None) -> "Optimizer":
        optimizer_state, model.state_dict = _step_with_scale(  # scaffolding: only the lr-given branch
            self.transformation, grad, self.state, model.state_dict, -lr
        )
        return self.replace(state=optimizer_state)


class StateDict(flax.struct.PyTreeNode):  # scaffolding: stand-in for the model's state dict
    params: dict  # scaffolding


class Model:  # scaffolding: stand-in for skrl.models.jax.Model
    def __init__(self):  # scaffolding
        self.state_dict = StateDict(params={"w": jnp.ones(4)})  # scaffolding


class DQN:  # scaffolding: the learning-rate lines of skrl.agents.jax.dqn.DQN
    def __init__(self, cfg, q_network):  # scaffolding
        self.cfg = cfg  # scaffolding
        self.q_network = q_network  # scaffolding
        self._learning_rate = self.cfg["learning_rate"]
        self._learning_rate_scheduler = self.cfg["learning_rate_scheduler"]  # scaffolding
        if self._learning_rate_scheduler:
            self.scheduler = self._learning_rate_scheduler(**self.cfg["learning_rate_scheduler_kwargs"])
        transformation = optax.scale_by_adam()  # scaffolding: Adam(..., scale=False)
        self.optimizer = Optimizer(transformation=transformation, state=transformation.init(q_network.state_dict.params))  # scaffolding

    def _update(self, timestep, grad):  # scaffolding
        self.optimizer = self.optimizer.step(
            grad, self.q_network, self._learning_rate if self._learning_rate_scheduler else None
        )
        if self._learning_rate_scheduler:
            self._learning_rate *= self.scheduler(timestep)


cfg = {"learning_rate": 1e-3, "learning_rate_scheduler": optax.linear_schedule,  # scaffolding
       "learning_rate_scheduler_kwargs": {"init_value": 1.0, "end_value": 0.9, "transition_steps": 10}}  # scaffolding
agent = DQN(cfg, Model())  # scaffolding
grad = {"w": jnp.full(4, 0.1)}  # scaffolding
calls = 0  # scaffolding
for timestep in range(5):  # scaffolding
    agent._update(timestep, grad)  # scaffolding
    calls += 1  # scaffolding
print(type(agent._learning_rate).__name__)  # scaffolding
_report({"jit(_step_with_scale)"}, calls)  # scaffolding
