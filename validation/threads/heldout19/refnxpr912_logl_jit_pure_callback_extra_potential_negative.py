# source: https://github.com/refnx/refnx/pull/912
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: before the PR the jitted log-likelihood called the Python prior through jax.pure_callback inside a custom_jvp; that is slow per call but not a jit misuse: logl_jit compiles once for its 3 calls and sees the updated parameters through the callback.
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
import numpy as np

jax.config.update("jax_enable_x64", True)  # scaffolding: refnx runs in float64


class _Model:  # scaffolding: a refnx model whose logp is a Python-side prior
    def __init__(self):
        self.values = np.zeros(2)

    def logp(self):
        return -0.5 * float(np.sum(self.values ** 2))


class _Objective:  # scaffolding: refnx Objective with setp
    def __init__(self, model):
        self.model = model

    def setp(self, pvals):
        self.model.values = np.asarray(pvals, dtype=float)


model = _Model()  # scaffolding
objective = _Objective(model)  # scaffolding
has_logp_extra = False  # scaffolding
setp_indices = np.array([0, 1], dtype=np.intp)  # scaffolding
q = np.linspace(0.01, 0.3, 50)  # scaffolding
data = np.exp(-20 * q)  # scaffolding


def logl_raw(free):  # scaffolding: stands in for the compiled reflectivity log-likelihood
    model_r = jnp.exp(-free[0] * 20 * q) + free[1]
    return -0.5 * jnp.sum((data - model_r) ** 2 / 1e-4)


def _extra_potential_callback(free_np: np.ndarray) -> np.ndarray:
    objective.setp(free_np[setp_indices])
    extra = float(model.logp())
    return np.array(extra, dtype=np.float64)


@jax.custom_jvp
def _extra_potential(free: jnp.ndarray) -> jnp.ndarray:
    return jax.pure_callback(
        _extra_potential_callback,
        jax.ShapeDtypeStruct((), jnp.float64),
        free,
    )


@_extra_potential.defjvp
def _extra_potential_jvp(primals, tangents):
    (free,) = primals
    return _extra_potential(free), jnp.zeros((), dtype=jnp.float64)


def logl_with_extra(free: jnp.ndarray) -> jnp.ndarray:
    return logl_raw(free) + _extra_potential(free)


logl_jit = jax.jit(logl_with_extra)
for free in ([1.0, 0.0], [1.1, 0.01], [0.9, -0.01]):  # scaffolding: three sampler steps
    val = logl_jit(jnp.asarray(free))
    assert np.allclose(model.values, free)  # scaffolding: the callback saw the new parameters
_report({"jit(logl_with_extra)"}, 3)  # scaffolding
