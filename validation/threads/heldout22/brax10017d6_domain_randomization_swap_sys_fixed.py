# source: https://github.com/google/brax/commit/10017d69eda8808419d9068c2f3a50c7dca59bd0
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: the PR swaps sys in a context manager and restores the original afterwards, so no tracer stays on the shared environment and the eval wrapper builds and runs.
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


from contextlib import contextmanager
from typing import Callable, Tuple, ContextManager
import jax
import jax.numpy as jp  # scaffolding
from flax import struct  # scaffolding


@struct.dataclass
class System:  # scaffolding: brax.System stand-in with one randomised field
    friction: jax.Array  # scaffolding


@struct.dataclass
class State:  # scaffolding: brax.envs.base.State stand-in
    obs: jax.Array  # scaffolding


class Env:  # scaffolding: brax.envs.base.Env / PipelineEnv stand-in
    def __init__(self):  # scaffolding
        self.sys = System(friction=jp.ones(()))  # scaffolding

    @property  # scaffolding
    def unwrapped(self):  # scaffolding
        return self  # scaffolding

    def reset(self, rng):  # scaffolding
        return State(obs=jax.random.normal(rng, (3,)) * self.sys.friction)  # scaffolding

    def step(self, state, action):  # scaffolding
        return State(obs=state.obs + action * self.sys.friction)  # scaffolding


class Wrapper(Env):  # scaffolding: brax.envs.base.Wrapper
    def __init__(self, env):  # scaffolding
        self.env = env  # scaffolding

    @property  # scaffolding
    def unwrapped(self):  # scaffolding
        return self.env.unwrapped  # scaffolding

    def __getattr__(self, name):  # scaffolding
        if name == '__setstate__':  # scaffolding
            raise AttributeError(name)  # scaffolding
        return getattr(self.env, name)  # scaffolding


class DomainRandomizationVmapWrapper(Wrapper):
  """Wrapper for domain randomization."""

  def __init__(
      self,
      env: Env,
      randomization_fn: Callable[[System], Tuple[System, System]],
  ):
    super().__init__(env)
    self._sys_v, self._in_axes = randomization_fn(self.sys)

  @contextmanager
  def _swap_sys(self, new_sys)-> ContextManager[None]:
    env = self.env.unwrapped
    old_sys = env.sys
    env.sys = new_sys
    try:
      yield
    finally:
      env.sys = old_sys

  def reset(self, rng: jax.Array) -> State:
    def reset(sys, rng):
      with self._swap_sys(sys):
        out = self.env.reset(rng)
      return out

    state = jax.vmap(reset, in_axes=[self._in_axes, 0])(self._sys_v, rng)
    return state

  def step(self, state: State, action: jax.Array) -> State:
    def step(sys, s, a):
      with self._swap_sys(sys):
        out = self.env.step(s, a)
      return out

    res = jax.vmap(step, in_axes=[self._in_axes, 0, 0])(
        self._sys_v, state, action
    )
    return res


def randomization_fn(sys):  # scaffolding: a domain randomisation of friction over 4 envs
    friction = sys.friction * jp.linspace(0.5, 1.5, 4)  # scaffolding
    return sys.replace(friction=friction), System(friction=0)  # scaffolding


environment = Env()  # scaffolding
try:  # scaffolding
    env = DomainRandomizationVmapWrapper(environment, randomization_fn)  # scaffolding: training env
    state = jax.jit(env.reset)(jax.random.split(jax.random.PRNGKey(0), 4))  # scaffolding
    state = jax.jit(env.step)(state, jp.ones((4, 3)))  # scaffolding
    eval_env = DomainRandomizationVmapWrapper(environment, randomization_fn)  # scaffolding: eval env wraps the same environment
    eval_state = jax.jit(eval_env.reset)(jax.random.split(jax.random.PRNGKey(1), 4))  # scaffolding
    _report({"jit(reset)", "jit(step)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
