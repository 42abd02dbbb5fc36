# source: https://github.com/dfm/tinygp/issues/106
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The reporter's padding workaround (extra points far away with huge noise up to a fixed length) keeps every input at one shape, so the jitted loss compiles once.

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
import numpy as np

jax.config.update("jax_enable_x64", True)


# scaffolding: tinygp is not installed; a dense GaussianProcess with an ExpSquared kernel and a
# log_probability method stands in for tinygp.GaussianProcess(kernel, x, diag=noise)
class GaussianProcess:
    def __init__(self, scale, x, diag):
        d = x[:, None] - x[None, :]
        self.K = jnp.exp(-0.5 * (d / scale) ** 2) + jnp.diag(diag)

    def log_probability(self, y):
        L = jnp.linalg.cholesky(self.K)
        a = jax.scipy.linalg.solve_triangular(L, y, lower=True)
        return -0.5 * a @ a - jnp.sum(jnp.log(jnp.diag(L))) - 0.5 * y.size * jnp.log(2 * jnp.pi)


@jax.jit
def loss(log_scale, x, y, noise):
    gp = GaussianProcess(jnp.exp(log_scale), x, diag=noise)
    return -gp.log_probability(y)


# scaffolding: the reporter re-runs the jitted GP on data sets of different length N_data
rng = np.random.default_rng(0)
calls = 0
for N_data in (20, 27, 35):
    x = np.sort(rng.uniform(0, 10, N_data))
    y = np.sin(x) + 0.1 * rng.normal(size=N_data)
    noise = 0.01 * np.ones(N_data)
    # the reporter's workaround: pad to a fixed length with points far away in input space and
    # very noisy measurements
    N_pad = 40
    x_pad = np.concatenate([x, 1e6 + np.arange(N_pad - N_data)])
    y_pad = np.concatenate([y, np.zeros(N_pad - N_data)])
    noise_pad = np.concatenate([noise, 1e6 * np.ones(N_pad - N_data)])
    loss(0.0, x_pad, y_pad, noise_pad)
    calls += 1
_report({"jit(loss)"}, calls)
