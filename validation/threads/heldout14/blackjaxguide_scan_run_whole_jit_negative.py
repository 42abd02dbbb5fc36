# source: https://blackjax-devs.github.io/blackjax/examples/speed_up_guide.html
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the guide's recommended pattern jits one outer run function that scans the kernel, so repeated calls with the same shapes reuse one compile.

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
import jax.numpy as jnp  # scaffolding
import blackjax  # scaffolding


def logdensity(x):  # scaffolding: the guide does not define a model
    return -0.5 * jnp.sum(x**2)  # scaffolding


nuts = blackjax.nuts(logdensity, step_size=0.1, inverse_mass_matrix=jnp.ones(2))  # scaffolding
kernel = nuts.step  # scaffolding
n_iter = 10  # scaffolding


@jax.jit
def run(rng_key, initial_state):
    def step(state, key):
        state, info = kernel(key, state)
        return state, info
    return jax.lax.scan(step, initial_state, jax.random.split(rng_key, n_iter))


state = nuts.init(jnp.zeros(2))  # scaffolding
calls = 0  # scaffolding
for seed in range(3):  # scaffolding
    state, infos = run(jax.random.key(seed), state)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(run)"}, calls)  # scaffolding
