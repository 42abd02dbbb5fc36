# source: https://github.com/google/brax/issues/537
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: passing the training progress as an argument of the jitted reset (broadcast over the batch with in_axes=None) makes it a traced input, so one compile serves every step and each reset sees the current value.

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
    def reset(self, rng, current_step):
        difficulty = jp.minimum(current_step / 100.0, 1.0)  # scaffolding
        return jax.random.uniform(rng, (3,)) * difficulty  # scaffolding


env = CurriculumEnv()  # scaffolding
reset_fn = jax.jit(jax.vmap(env.reset, in_axes=(0, None)))
calls = 0  # scaffolding
for it in range(5):  # scaffolding: training iterations
    current_step = (it + 1) * 20  # scaffolding: training progress
    obs = reset_fn(jax.random.split(jax.random.PRNGKey(0), 4), current_step)
    calls += 1  # scaffolding
print("max obs at current_step=100:", float(obs.max()))  # scaffolding
_report({"jit(reset)"}, calls)  # scaffolding
