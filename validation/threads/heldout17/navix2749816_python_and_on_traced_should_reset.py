# source: https://github.com/epignatelli/navix/commit/2749816afeab4accd1687ece80f4e3ccc70e149f
# expect: trace-time-error at line 67
# runtime: ERROR TracerBoolConversionError
# why: step combines the traced should_reset with Python 'and'/'not', which calls bool() on a tracer when the step is jitted and raises TracerBoolConversionError.

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


from typing import Any, Dict

import jax
import jax.numpy as jnp
from flax import struct
from jax import Array

RenderingCache = Any  # scaffolding


class State(struct.PyTreeNode):  # scaffolding: the fields of navix's State that step/reset touch
    key: Array
    cache: Any = None
    pos: Array = struct.field(default_factory=lambda: jnp.zeros((), jnp.int32))


class Timestep(struct.PyTreeNode):  # scaffolding: navix Timestep subset
    t: Array
    state: State
    step_type: Array
    reward: Array
    info: Dict[str, Any] = struct.field(default_factory=dict)


# navix/environments/environment.py (before the commit; Environment cut to the fields and the reset/step methods)
class Environment(struct.PyTreeNode):
    max_steps: int = struct.field(pytree_node=False, default=10)
    disable_autoreset: bool = struct.field(pytree_node=False, default=False)

    def reset(self, key: Array, cache: RenderingCache | None = None) -> Timestep:
        k1, k2 = jax.random.split(key)
        timestep = self._reset(k1, cache)
        timestep.info["return"] = jnp.asarray(0.0)
        return timestep.replace(state=timestep.state.replace(key=k2))

    def step(self, timestep: Timestep, action: Array) -> Timestep:
        # autoreset if necessary: 0 = transition, 1 = truncation, 2 = termination
        should_reset = timestep.step_type > 0
        return jax.lax.cond(
            should_reset and not self.disable_autoreset,
            lambda timestep: self.reset(timestep.state.key, timestep.state.cache),
            lambda timestep: self._step(timestep, action),
            timestep,
        )

    def _reset(self, key: Array, cache: RenderingCache | None = None) -> Timestep:  # scaffolding: a toy corridor
        state = State(key=key, cache=cache)
        return Timestep(t=jnp.asarray(0, jnp.int32), state=state, step_type=jnp.asarray(0, jnp.int32), reward=jnp.asarray(0.0, jnp.float32), info={})

    def _step(self, timestep: Timestep, action: Array) -> Timestep:  # scaffolding: walk right, terminate at cell 3
        pos = timestep.state.pos + action
        t = timestep.t + 1
        step_type = jnp.where(pos >= 3, 2, jnp.where(t >= self.max_steps, 1, 0)).astype(jnp.int32)
        info = dict(timestep.info)
        return Timestep(t=t, state=timestep.state.replace(pos=pos), step_type=step_type,
                        reward=(pos >= 3).astype(jnp.float32), info=info)


# scaffolding: a rollout with the jitted step, as navix's examples run it
env = Environment()
timestep = env.reset(jax.random.PRNGKey(0))
step = jax.jit(env.step)
calls = 0
try:  # scaffolding
    for _ in range(5):
        timestep = step(timestep, jnp.asarray(1))
        calls += 1
    _report({"jit(step)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
