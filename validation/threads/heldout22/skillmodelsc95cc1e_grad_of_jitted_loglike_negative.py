# source: https://github.com/OpenSourceEconomics/skillmodels/commit/c95cc1eff6f913c3ed69ffc25610ed56710dd1aa
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: jax.grad is taken of the already jitted loglike, so the gradient runs as an eager grad over a jit; the forward and transposed jits are compiled once each and reused at every new parameter vector.
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
import functools  # scaffolding
import jax
import jax.numpy as jnp  # scaffolding


def _base_loglike(params, data, debug):  # scaffolding: small stand-in for skillmodels' Kalman-filter likelihood
    resid = data - params[:, None]
    ll = -0.5 * jnp.sum(resid ** 2)
    return ll, {"contributions": -0.5 * resid ** 2}


def get_maximization_inputs(data):  # scaffolding: cut down to the lines of the commit
    _loglike = functools.partial(_base_loglike, data=data, debug=False)

    _jitted_loglike = jax.jit(_loglike)
    _gradient = jax.grad(_jitted_loglike, has_aux=True)
    return _jitted_loglike, _gradient


data = jnp.ones((3, 50))  # scaffolding
_jitted_loglike, _gradient = get_maximization_inputs(data)  # scaffolding
params = jnp.zeros(3)  # scaffolding
for it in range(5):  # scaffolding: an optimizer asking for the gradient at new parameters
    g, aux = _gradient(params + it)
_report({"jit(_base_loglike)", "jit(_loglike)", "jit(jvp(_base_loglike))", "jit(transpose(jvp(_base_loglike)))"}, 5)  # scaffolding
