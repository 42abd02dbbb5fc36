# source: https://github.com/tedwards2412/ripple/issues/4
# expect: shape-churn at line 42
# runtime: COMPILES 3 CALLS 3
# why: gen_IMRPhenomD_polar is jitted by default, and the heterodyne likelihood calls it with frequency arrays whose length changes, so every new length is a new input shape and the waveform is traced and compiled again (3 lengths, 3 compiles).
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


import jax
import jax.numpy as jnp


@jax.jit
def gen_IMRPhenomD_polar(f, params, f_ref):  # scaffolding: body is a stand-in for the IMRPhenomD waveform
    Mc, eta = params[0], params[1]  # scaffolding
    phase = 2 * jnp.pi * f * (Mc / f_ref) + eta * jnp.log(f / f_ref)  # scaffolding
    amp = f ** (-7.0 / 6.0)  # scaffolding
    return amp * jnp.cos(phase), amp * jnp.sin(phase)  # scaffolding


theta = jnp.array([30.0, 0.24])  # scaffolding
for n_freqs in (128, 160, 200):  # scaffolding: dynamic frequency-grid lengths (heterodyne likelihood)
    f = jnp.linspace(20.0, 1024.0, n_freqs)  # scaffolding
    hp, hc = gen_IMRPhenomD_polar(f, theta, 20.0)
_report({"jit(gen_IMRPhenomD_polar)"}, 3)  # scaffolding
