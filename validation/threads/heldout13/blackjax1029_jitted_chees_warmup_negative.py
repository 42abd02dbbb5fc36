# source: https://github.com/blackjax-devs/blackjax/issues/1029
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: On the installed blackjax (1.7.1, after the fix in PR #1030) the jitted ChEES warmup with diagonal mass-matrix estimation traces without concretizing the step size, so the reporter's jax.jit-over-run pattern compiles once and runs twice without error.

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
import jax, jax.numpy as jnp, optax, blackjax

def logdensity(x):
    return -0.5 * jnp.sum(x ** 2)

NCHAINS, NDIM = 8, 3
positions = jnp.zeros((NCHAINS, NDIM))  # scaffolding: the stored text is cut at `positions = jnp.z`

warmup = blackjax.chees_adaptation(logdensity, NCHAINS, mass_matrix_estimation="diagonal")  # scaffolding


@jax.jit  # scaffolding
def run_warmup(key, positions):  # scaffolding
    (state, params), _ = warmup.run(key, positions, 0.1, optax.adam(0.05), 60)
    return state.position, params["step_size"]


for seed in range(2):  # scaffolding
    pos, step_size = run_warmup(jax.random.PRNGKey(seed), positions)  # scaffolding
_report({"jit(run_warmup)"}, 2)  # scaffolding
