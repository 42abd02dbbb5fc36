# source: https://github.com/google-deepmind/optax/issues/328
# expect: none
# runtime: COMPILES 4 CALLS 5
# why: On optax 0.2.8 the eager update's bias correction no longer recompiles integer_pow per step: jit(integer_pow) compiles 4 times for its distinct static exponents in the first steps and then stays cached (the same 4 after 10 steps), and the jitted loss_fn compiles once.

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
from functools import partial
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import config  # scaffolding: was from jax.config import config
import os


config.update("jax_log_compiles", 0)  # scaffolding: was 1 (logging off; compiles are counted below)
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"


def biascorrection_recompilation_test():
    class M(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.Dense(1)(x)
            return x

    m = M()
    o = optax.adam(0.025, b1=int(1))

    input_array = jnp.ones((8,), dtype=float)
    params = m.init(jax.random.PRNGKey(0), input_array)
    opt_state = o.init(params)

    m_forward = jax.vmap(m.apply, in_axes=(None, 0))

    @jax.jit
    @partial(jax.value_and_grad, has_aux=True)
    def loss_fn(params, x, y):
        params_m = params
        y_m = m_forward(params_m, x)
        loss = jnp.mean(y_m - y ** 2)
        return loss, ()



    for i in range(5):  # scaffolding: was range(1000)
        print(i)
        inputs = jax.random.normal(jax.random.PRNGKey(i), (32, 8))
        outputs = jax.random.normal(jax.random.PRNGKey(-i), (32, 8))
        (loss, aux), grads = loss_fn(params, inputs, outputs)
        updates, opt_state = o.update(grads, opt_state)  # scaffolding
        params = optax.apply_updates(params, updates)  # scaffolding

biascorrection_recompilation_test()
_report({"jit(integer_pow)"}, 5)  # scaffolding
