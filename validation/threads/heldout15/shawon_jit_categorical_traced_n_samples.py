# source: https://github.com/ShawonAshraf/jax_examples
# expect: trace-time-error at line 43
# runtime: ERROR TypeError
# why: n_samples is a traced argument of jit(multinomial_sample), and random.categorical needs a concrete shape, so the call raises TypeError (the notebook shows the error).
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

try:  # scaffolding
    jit(multinomial_sample)(subkey, x, 50)
    _report({"jit(multinomial_sample)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
