# source: https://github.com/jax-ml/jax/issues/8171
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The jitted fwd scans a body that closes over the traced constant a and calls jax.nn.sigmoid; under jax.checking_leaks it no longer reports a leaked tracer on jax 0.10.2, and fwd compiles once.

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
import jax
import jax.numpy as jnp
print(jax.__version__)
# 0.2.21

def _sigmoid(x: jnp.ndarray):
    return 1.0 / (1. + jnp.exp(-x))


@jax.jit
def fwd():
    a = jnp.array(1.)

    def f(hx, _):
        hx = jax.nn.sigmoid(hx + a)
        # hx = _sigmoid(hx + a)
        return hx, None

    hx = jnp.array(0.)
    jax.lax.scan(f, hx, None, length=2)

with jax.checking_leaks():
    fwd()
    fwd()  # scaffolding: a second call
_report({"jit(fwd)"}, 2)  # scaffolding
