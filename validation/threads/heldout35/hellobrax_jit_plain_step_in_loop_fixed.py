# source: https://github.com/teruyuki-yamasaki/HelloBrax/blob/51eb0b0553ccf3deb6eb83fe40afdde53a7d147f/HelloBraxEnv.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: Cells 11-12, the notebook's next version: jax.jit(step) on a module-level function inside the loop hits the cache (the Python int i is a weakly typed traced scalar), so it compiles once.

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
import jax
from jax import numpy as jnp


class _StubEnv:  # scaffolding: stand-in for brax envs.create("ant") (old brax/jumpy API not installed)
    action_size = 8

    def reset(self, rng):
        return jnp.zeros((self.action_size,)) + jax.random.uniform(rng, ())

    def step(self, state, action):
        return 0.99 * state + 0.01 * jnp.tanh(action)


class _Jp:  # scaffolding: stand-in for brax.jumpy
    pi = jnp.pi
    ones = staticmethod(jnp.ones)
    sin = staticmethod(jnp.sin)
    random_prngkey = staticmethod(lambda seed: jax.random.PRNGKey(seed))


jp = _Jp()  # scaffolding
environment = "ant"
env = _StubEnv()  # scaffolding: env = envs.create(env_name=environment)

state = jax.jit(env.reset)(rng=jp.random_prngkey(seed=0))
def step(state, i):
    action = jp.ones((env.action_size,)) * jp.sin(i * jp.pi / 15) 
    return env.step(state, action)

rollout = [] 
for i in range(12):  # scaffolding: was range(100)
    # wiggle sinusoidally 
    state = jax.jit(step)(state, i)
    rollout.append(state) 
print(rollout[-1])  # scaffolding
_report({"jit(step)"}, 12)  # scaffolding
