# source: https://github.com/FLAIROx/JaxMARL/commit/5c4b4b3ee664f5d6c0a55048839fa227973f7205
# expect: trace-time-error at line 66
# runtime: ERROR TypeError
# why: simulate_rollout is a plain jax.jit whose arguments include the environment object and sim_steps, so jit tries to trace the env as an array argument and the call fails before the scan runs.
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

    # New: Define a jitted rollout function to speed up simulation by compiling the simulation loop.
    @jax.jit
    def simulate_rollout(params, env, sim_steps, rng, init_state):
        # The scan carries (rng, state) and outputs the latest state at each step.
        def sim_step(carry, _):
            rng, state = carry
            rng, key = jax.random.split(rng)
            actions = policy_fn(params, env.get_obs(state), key)
            rng, key = jax.random.split(rng)
            _, new_state, rewards, dones, info = env.step_env(key, state, actions)
            # Use jax.lax.cond to reset if any agent is done.
            def reset_fn(rng):
                rng, reset_key = jax.random.split(rng)
                return env.reset(reset_key)[1], rng
            new_state, rng = jax.lax.cond(
                jp.any(jp.array(list(dones.values()))),
                reset_fn,
                lambda rng: (new_state, rng),
                operand=rng
            )
            return (rng, new_state), new_state
        (rng, final_state), rollout = jax.lax.scan(sim_step, (rng, init_state), None, length=sim_steps)
        return rollout
    
    # Simulation: run an episode using the trained policy using compiled simulation.
    init_state = env.reset(rng_sim)[1]  # use agent state
    rollout = simulate_rollout(train_state_params, env, sim_steps, rng, init_state)
    rollout = jax.block_until_ready(rollout)


try:  # scaffolding
    main()  # scaffolding
    _report({"jit(simulate_rollout)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
