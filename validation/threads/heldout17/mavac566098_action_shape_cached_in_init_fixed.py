# source: https://github.com/instadeepai/Mava/commit/c5660987fccc1e79aaed915866628cfb04da97ab
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit builds the spec once in __init__ (outside jit) and keeps only its shape, so the jitted step compiles once and is reused.

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


import copy
from typing import Dict, Union

import chex
import jax
import jax.numpy as jnp
from jax import Array


# scaffolding: jumanji.specs.BoundedArray as in jumanji/specs.py at the time (docstrings cut), the spec the wrapper builds
class BoundedArray:
    def __init__(self, shape, dtype, minimum, maximum, name: str = ""):
        self._shape = tuple(int(dim) for dim in shape)
        self._dtype = jnp.dtype(dtype)
        self._name = name
        minimum = jnp.asarray(minimum, dtype)
        maximum = jnp.asarray(maximum, dtype)
        try:
            bcast_minimum = jnp.broadcast_to(minimum, shape=shape)
        except ValueError as jnp_exception:
            raise ValueError("`minimum` is incompatible with `shape`") from jnp_exception
        try:
            bcast_maximum = jnp.broadcast_to(maximum, shape=shape)
        except ValueError as jnp_exception:
            raise ValueError("`maximum` is incompatible with `shape`") from jnp_exception

        if jnp.any(bcast_minimum > bcast_maximum):
            raise ValueError(
                f"All values in `minimum` must be less than or equal to their corresponding "
                f"value in `maximum`, got: \n\tminimum={repr(minimum)}\n\tmaximum={repr(maximum)}"
            )
        self._minimum = minimum
        self._maximum = maximum

    @property
    def shape(self):
        return self._shape


class specs:  # scaffolding
    BoundedArray = BoundedArray
    Spec = object


class Box:  # scaffolding: jaxmarl.environments.spaces.Box
    def __init__(self, low, high, shape, dtype=jnp.float32):
        self.low, self.high, self.shape, self.dtype = low, high, shape, dtype


class jaxmarl_spaces:  # scaffolding
    Box = Box
    Discrete = type("Discrete", (), {})
    Space = object


class ToyMabrax:  # scaffolding: a two-agent MABrax-like env exposing what the wrapper reads
    agents = ["agent_0", "agent_1"]
    num_agents = 2
    action_spaces = {a: Box(-1.0, 1.0, (3,)) for a in agents}


# mava/wrappers/jaxmarl.py (after the commit; the parts on the action_mask path)
def _is_discrete(space: jaxmarl_spaces.Space) -> bool:
    """JaxMarl sometimes uses gymnax and sometimes uses their own specs, so this is needed."""
    return isinstance(space, (jaxmarl_spaces.Discrete,))  # gymnax_spaces.Discrete cut (scaffolding)


def _is_box(space: jaxmarl_spaces.Space) -> bool:
    """JaxMarl sometimes uses gymnax and sometimes uses their own specs, so this is needed."""
    return isinstance(space, (jaxmarl_spaces.Box,))  # gymnax_spaces.Box cut (scaffolding)


def merge_space(
    spec: Dict[str, Union[jaxmarl_spaces.Box, jaxmarl_spaces.Discrete]]
) -> jaxmarl_spaces.Space:
    """Convert a dictionary of spaces into a single space with a num_agents size first dimension.

    JaxMarl uses a dictionary of specs, one per agent. For now we want this to be a single spec.
    """
    n_agents = len(spec)
    single_spec = copy.deepcopy(list(spec.values())[0])

    err = f"Unsupported space for merging spaces, expected Box or Discrete, got {type(single_spec)}"
    assert _is_discrete(single_spec) or _is_box(single_spec), err

    new_shape = (n_agents, *single_spec.shape)
    single_spec.shape = new_shape

    return single_spec


def jaxmarl_space_to_jumanji_spec(space: jaxmarl_spaces.Space) -> specs.Spec:
    """Convert a jaxmarl space to a jumanji spec."""
    if _is_box(space):  # the Discrete/Dict/Tuple branches cut (scaffolding)
        return specs.BoundedArray(
            shape=space.shape,
            dtype=space.dtype,
            minimum=space.low,
            maximum=space.high,
        )


class JaxMarlWrapper:
    """Wraps a JaxMarl environment so that its API is compatible with Jumanji environments."""

    def __init__(self, env, has_global_state: bool, state_size: float, timelimit: int) -> None:  # scaffolding: cut
        self._env = env
        self._timelimit = timelimit
        self.agents = self._env.agents
        self.num_agents = self._env.num_agents
        self.has_global_state = has_global_state
        self.state_size = state_size

    def action_spec(self) -> specs.Spec:
        return jaxmarl_space_to_jumanji_spec(merge_space(self._env.action_spaces))


class MabraxWrapper(JaxMarlWrapper):
    """Wrraper for the Mabrax environment."""

    def __init__(self, env, has_global_state: bool = False, timelimit: int = 1000):
        state_size = 8  # scaffolding: env.env.observation_size
        super().__init__(env, has_global_state, state_size, timelimit)
        self.action_shape = self.action_spec().shape

    def action_mask(self, state) -> Array:
        """Get action mask for each agent."""
        return jnp.ones(self.action_shape, dtype=jnp.float32)


# scaffolding: the wrapper's jitted step path builds the action mask from the env state
env = MabraxWrapper(ToyMabrax())


@jax.jit
def step_action_mask(state):
    return env.action_mask(state) * state


calls = 0
try:  # scaffolding
    for _ in range(2):
        mask = step_action_mask(jnp.ones((2, 3)))
        calls += 1
    _report({"jit(step_action_mask)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
