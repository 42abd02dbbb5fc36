# source: https://github.com/mlaux1/rl-blox/pull/19
# expect: trace-time-error at line 67
# runtime: ERROR TypeError
# why: @jax.jit on a method of a plain class makes self the first traced argument, and a TabularValueFunction instance is not a valid JAX type, so the first call raises TypeError (update, jitted the same way, would also discard the .at[].add result).
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
# mlaux1/rl-blox PR #19 (merge 3370e0b, "jaxify implementation of Q-Learning"): modular_rl/policy/value_functions_jax.py, ValueFunction and TabularValueFunction
import abc

import jax
import jax.numpy as jnp
from jax import Array


class Discrete:  # scaffolding: gymnasium.spaces.discrete.Discrete (gymnasium not installed)
    def __init__(self, n):
        self.n = n


def flatdim(space):  # scaffolding: gymnasium.spaces.utils.flatdim
    return space.n


class ValueFunction(abc.ABC):
    """Base value function class interface."""

    @abc.abstractmethod
    def get_state_value(self, observation: Array) -> Array:
        pass

    @abc.abstractmethod
    def update(self, observations, values) -> None:
        pass


class TabularValueFunction(ValueFunction):
    """Tabular state value function."""

    def __init__(
            self,
            observation_space: Discrete,
            initial_value: float = 0.0):
        self.values = jnp.full(
            shape=flatdim(observation_space),
            fill_value=initial_value,
            dtype=jnp.float32,
        )

    @jax.jit
    def get_state_value(self, observation: Array) -> Array:
        return self.values[observation]

    @jax.jit
    def update(self, observations, step) -> None:
        self.values.at[observations].add(step)


vf = TabularValueFunction(Discrete(16))  # scaffolding: e.g. FrozenLake's 16 states
try:  # scaffolding
    v = vf.get_state_value(jnp.array(3))  # scaffolding
    vf.update(jnp.array([3]), 0.5)  # scaffolding
    _report({"jit(get_state_value)", "jit(update)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
