# source: https://github.com/HughMcDougall/HughMcDougall.github.io/blob/4c9605a2e89abcb07c1d0b6877ac7fc64ece651d/blog/02_numpyro/07_utils/utilexample.md
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: log_pi is @jax.vmap over @jax.jit (jit inside vmap, with a lax.cond on a NaN test); the vmap batches the jit once, so evaluating it on four 1024-point grids compiles jit(log_pi) once rather than per element or per call.

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
import numpy as np
import jax
import jax.numpy as jnp
import numpyro
from numpyro import distributions as dist
from numpyro import infer

lim = 10.0
bound = 1.0

def model():
    x = numpyro.sample('x', dist.Uniform(-bound,bound))
    numpyro.sample('y', dist.Normal(x,1), obs=0.0)

X = np.linspace(-lim,lim,1024)

tformer = lambda x: infer.util.unconstrain_fn(model, params ={'x':x}, model_args = (), model_kwargs={})['x']
tform_grad = jax.grad(tformer)
tformer = jax.vmap(tformer)

def _log_pi(x, xuncon):
    pe = infer.util.potential_energy(model, params = {'x': xuncon}, model_args = (), model_kwargs = {})
    ll = infer.util.log_likelihood(model, posterior_samples = {'x': x}, *())['y']
    grad = tform_grad(x)
    out = -pe - ll + jnp.log(grad)
    return(out)

def _neginf(x, xuncon):
    return(-jnp.inf)

@jax.vmap
@jax.jit
def log_pi(x):
    xuncon = tformer(jnp.array([x]))[0]
    r = jax.lax.cond(jnp.isnan(xuncon), _neginf, _log_pi, x, xuncon)
    return(r)

# (plotting removed: scaffolding) the notebook evaluates np.exp(log_pi(X)) for the plot
density = np.exp(log_pi(X))
for scale in (0.5, 0.9, 1.1):  # scaffolding: three more grids of the same size
    density = np.exp(log_pi(X * scale))  # scaffolding
_report({"jit(log_pi)"}, 4)  # scaffolding
