# source: https://github.com/FLAIROx/JaxMARL/commit/6516df33df22425372ae70458db3d01fdee4475d
# expect: jit-in-loop-or-body at line 88
# runtime: COMPILES 5 CALLS 5
# why: the commit wraps env.step as jax.jit(env.step) inside the game loop, so each frame builds a new jit wrapper around a new bound method and step is traced and compiled again every frame.
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
import jax.numpy as jnp
from flax import struct  # scaffolding


@struct.dataclass
class State:  # scaffolding: OvercookedV3 state stand-in
    agent_pos: jax.Array  # scaffolding
    time: jax.Array  # scaffolding


class OvercookedV3:  # scaffolding: a tiny env with the MultiAgentEnv reset/step signatures
    def __init__(self, layout, **kwargs):  # scaffolding
        self.width, self.height = 5, 4  # scaffolding

    def reset(self, key):  # scaffolding
        state = State(agent_pos=jax.random.randint(key, (2, 2), 0, 4), time=jnp.zeros((), jnp.int32))  # scaffolding
        return {"agent_0": state.agent_pos[0], "agent_1": state.agent_pos[1]}, state  # scaffolding

    def step(self, key, state, actions):  # scaffolding
        moves = jnp.array([[1, 0], [0, 1], [-1, 0], [0, -1], [0, 0], [0, 0]])  # scaffolding
        pos = state.agent_pos + jnp.stack([moves[actions["agent_0"]], moves[actions["agent_1"]]])  # scaffolding
        state = state.replace(agent_pos=jnp.clip(pos, 0, 3), time=state.time + 1)  # scaffolding
        obs = {"agent_0": pos[0], "agent_1": pos[1]}  # scaffolding
        rewards = {"agent_0": jnp.float32(0.0), "agent_1": jnp.float32(0.0)}  # scaffolding
        return obs, state, rewards, {"__all__": state.time > 100}, {}  # scaffolding


def create_env(layout_name):
    return OvercookedV3(
        layout=layout_name,
        enable_moving_walls=True,
        enable_buttons=True,
        pot_cook_time=20,
        pot_burn_time=10,
    )


def main():
    layout_name = "moving_wall_demo"
    env = create_env(layout_name)

    key = jax.random.PRNGKey(42)
    key, subkey = jax.random.split(key)
    obs, state = jax.jit(env.reset)(subkey)

    total_reward = 0
    step_count = 0
    running = True

    while running:
        agent0_action = 4  # stay
        agent1_action = 4  # stay
        # scaffolding: pygame event handling, key polling and rendering left out; agent 0 walks right
        agent0_action = step_count % 4  # scaffolding

        actions = {
            "agent_0": jnp.array(agent0_action),
            "agent_1": jnp.array(agent1_action),
        }
        key, subkey = jax.random.split(key)
        obs, state, rewards, dones, info = jax.jit(env.step)(subkey, state, actions)

        step_count += 1
        reward = rewards["agent_0"]
        total_reward += reward

        if reward > 0:
            print(f"DELIVERY! +{reward:.0f} (Total: {total_reward:.0f})")
        running = step_count < 5  # scaffolding: five frames instead of waiting for Q/ESC


main()  # scaffolding
_report({"jit(step)"}, 5)  # scaffolding
