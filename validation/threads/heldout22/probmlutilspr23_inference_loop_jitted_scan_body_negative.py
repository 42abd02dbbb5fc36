# source: https://github.com/probml/probml-utils/pull/23
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the @jax.jit one_step defined inside inference_loop is the body of an eager lax.scan; the inner jit is inlined, so one call of inference_loop compiles once (jit(scan)).
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
# probml/probml-utils pull request #23: inference_loop added to blackjax_utils.py, as merged
import jax.numpy as jnp
import jax
import blackjax  # scaffolding


def inference_loop(rng_key, kernel, initial_state, num_samples):
    '''
    returns (states, info)
    Visit this page for more info: https://blackjax-devs.github.io/blackjax/examples/Introduction.html
    '''
    @jax.jit
    def one_step(state, rng_key):
        state, info = kernel(rng_key, state)
        return state, (state, info)

    keys = jax.random.split(rng_key, num_samples)
    _, (states, infos) = jax.lax.scan(one_step, initial_state, keys)

    return (states, infos)


def logdensity_fn(x):  # scaffolding: a standard normal target
    return -0.5 * jnp.sum(x ** 2)


hmc = blackjax.hmc(logdensity_fn, step_size=0.1, inverse_mass_matrix=jnp.ones(2), num_integration_steps=5)  # scaffolding
initial_state = hmc.init(jnp.zeros(2))  # scaffolding
states, infos = inference_loop(jax.random.PRNGKey(0), hmc.step, initial_state, 100)  # scaffolding
_report({"jit(one_step)", "jit(scan)"}, 1)  # scaffolding
