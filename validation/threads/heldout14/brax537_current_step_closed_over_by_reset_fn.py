# source: https://github.com/google/brax/issues/537
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 5
# why: the proposed reset_fn closes over the Python variable current_step, which is read once while jit traces; the loop keeps updating current_step but every later reset still sees the first value.

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
current_step = 0  # scaffolding
reset_fn = jax.jit(jax.vmap(lambda x: env.reset(x, current_step)))
calls = 0  # scaffolding
for it in range(5):  # scaffolding: training iterations
    current_step = (it + 1) * 20  # scaffolding: training progress
    obs = reset_fn(jax.random.split(jax.random.PRNGKey(0), 4))
    calls += 1  # scaffolding
print("max obs at current_step=100:", float(obs.max()))  # scaffolding: still scaled by the step-20 difficulty
_report({"jit(<lambda>)"}, calls)  # scaffolding
