# source: https://github.com/ShawonAshraf/jax_examples
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the notebook's fix marks n_samples static (static_argnums=2); the two sample sizes it tries (50, 150) compile once each.
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
import jax as J
from jax import jit, random
import jax.numpy as jnp

key = random.key(123)

x = random.normal(key, shape=(9, ))

def multinomial_sample(rng_key, logits, n_samples):
    return random.categorical(rng_key, logits, shape=[n_samples, ])

key, subkey = random.split(key)
multinomial_sample(subkey, x, 50)

jit(multinomial_sample, static_argnums=2)(subkey, x, 50)

jit(multinomial_sample, static_argnums=2)(subkey, x, 150)
_report({"jit(multinomial_sample)"}, 2)  # scaffolding
