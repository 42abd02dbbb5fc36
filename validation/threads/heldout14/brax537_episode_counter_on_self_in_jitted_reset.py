# source: https://github.com/google/brax/issues/537
# expect: stale-closure at line 38
# runtime: COMPILES 1 CALLS 5
# why: the counter is a Python attribute bumped inside reset, which only runs while jit traces, so after five jitted resets num_episodes is still 1 and the difficulty it drives never changes.

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
import jax  # scaffolding
import jax.numpy as jp  # scaffolding


class CurriculumEnv:  # scaffolding: stand-in for a brax Env (brax is not installed)
    def __init__(self):
        self.num_episodes = 0

    def reset(self, rng):
        self.num_episodes = self.num_episodes + 1
        difficulty = jp.minimum(self.num_episodes / 100.0, 1.0)  # scaffolding
        return jax.random.uniform(rng, (3,)) * difficulty  # scaffolding


env = CurriculumEnv()  # scaffolding
reset_fn = jax.jit(jax.vmap(env.reset))  # scaffolding: as brax's PPO trainer builds it
calls = 0  # scaffolding
for it in range(5):  # scaffolding
    obs = reset_fn(jax.random.split(jax.random.PRNGKey(it), 4))
    calls += 1  # scaffolding
print("num_episodes after 5 resets:", env.num_episodes)  # scaffolding
_report({"jit(reset)"}, calls)  # scaffolding
