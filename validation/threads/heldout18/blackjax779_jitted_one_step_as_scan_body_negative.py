# source: https://github.com/blackjax-devs/blackjax/issues/779
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: a @jax.jit one_step is passed as the body of an eager lax.scan; the inner jit is inlined, so the whole 200-step chain compiles once (jit(scan)).
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
# blackjax-devs/blackjax issue #779: the reporter's single-chain Barker code that works, as written
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import blackjax  # scaffolding


def log_density_fn(x):  # scaffolding: the thread does not show its 5-parameter target
    return -0.5 * jnp.sum((x - jnp.array([15.0, 15.0, 0.0, 1.0, 0.0])) ** 2)


rng_key = jax.random.PRNGKey(0)  # scaffolding
step_size = 0.1  # scaffolding
num_samples = 200  # scaffolding

# initial_states = jnp.repeat(jnp.array([15.,15.,0.,1.,0.])[jnp.newaxis,:],axis=0, repeats = num_chains)
initial_position = jnp.array([15., 15., 0., 1., 0.])  # shape (5,)
barker_state = blackjax.mcmc.barker.init(
    position=initial_position, logdensity_fn=log_density_fn)
barker_kernel = blackjax.barker.build_kernel()
barker_kernel(rng_key=rng_key, state=barker_state,
              logdensity_fn=log_density_fn, step_size=0.1)

@jax.jit
def one_step(state, subkey):
    new_state, info = barker_kernel(subkey, state, log_density_fn, step_size)
    return new_state, state.position

# blackjax.mcmc.barker.build_kernel(jax.random.PRNGKey(42),barker_state)
keys = jax.random.split(rng_key, num_samples)
result = jax.lax.scan(one_step, barker_state, keys)
_report({"jit(one_step)", "jit(scan)"}, 1)  # scaffolding
