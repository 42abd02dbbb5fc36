# source: https://github.com/FLAIROx/JaxMARL/commit/5c4b4b3ee664f5d6c0a55048839fa227973f7205
# expect: none
# runtime: COMPILES 0 CALLS 10
# why: the fix commit goes back to the Python simulation loop that calls policy_fn and env.step_env eagerly, so no environment object is passed to jit.
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


import jax
import jax.numpy as jp
from flax import struct  # scaffolding


@struct.dataclass
class EnvState:  # scaffolding: multiquad state stand-in
    pos: jax.Array  # scaffolding
    t: jax.Array  # scaffolding


class MultiQuadEnv:  # scaffolding: stand-in for jaxmarl.make(config["ENV_NAME"])
    agents = ["q0", "q1"]  # scaffolding

    def reset(self, key):  # scaffolding
        s = EnvState(pos=jax.random.normal(key, (2, 3)), t=jp.zeros((), jp.int32))  # scaffolding
        return self.get_obs(s), s  # scaffolding

    def get_obs(self, state):  # scaffolding
        return {a: state.pos[i] for i, a in enumerate(self.agents)}  # scaffolding

    def step_env(self, key, state, actions):  # scaffolding
        pos = state.pos + 0.1 * jp.stack([actions[a] for a in self.agents])  # scaffolding
        s = EnvState(pos=pos, t=state.t + 1)  # scaffolding
        dones = {a: s.t >= 4 for a in self.agents}  # scaffolding
        return self.get_obs(s), s, {a: -jp.sum(pos ** 2) for a in self.agents}, dones, {}  # scaffolding


def main():
    env = MultiQuadEnv()  # scaffolding
    rng = jax.random.PRNGKey(0)  # scaffolding
    rng, rng_sim = jax.random.split(rng)  # scaffolding
    sim_steps = 10  # scaffolding
    train_state_params = {"w": jp.eye(3)}  # scaffolding: stands for train_state.params

    def policy_fn(params, obs, key):  # scaffolding: the trained ActorCritic replaced by a linear policy
        return {a: o @ params["w"] + 0.01 * jax.random.normal(key, (3,)) for a, o in obs.items()}  # scaffolding

   # Simulation: run an episode using the trained policy
    state = env.reset(rng_sim)
    rollout = [state[1]]
    
    print("Starting simulation with trained policy...")
    for i in range(sim_steps):
        rng, key = jax.random.split(rng)
        actions = policy_fn(train_state_params, env.get_obs(state[1]), key)  
        rng, key = jax.random.split(rng)
        _, new_state, rewards, dones, info = env.step_env(key, state[1], actions)
        rollout.append(new_state)
        # If any episode terminates, reset the environment and log the new state
        if any(dones.values()):
            rng, reset_key = jax.random.split(rng)
            state = env.reset(reset_key)
            rollout.append(state[1])
        else:
            state = (None, new_state)
    state = jax.block_until_ready(state)


try:  # scaffolding
    main()  # scaffolding
    _report({"jit(simulate_rollout)"}, 10)  # scaffolding: 10 simulated steps, nothing jitted  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
