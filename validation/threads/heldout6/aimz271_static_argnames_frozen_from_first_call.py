# source: https://github.com/markean/aimz/issues/271
# expect: bad-static-spec at line 58
# runtime: ERROR TypeError
# why: the jitted SVI.update wrapper is built once, with static_argnames taken from the non-array keyword arguments of the first call only; a later call that passes a different non-array keyword (a string) sends it to jit as a traced argument, which raises TypeError.

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
import numpyro
import numpyro.distributions as dist
from numpyro.infer import SVI, Trace_ELBO
from numpyro.infer.autoguide import AutoNormal
from numpyro.optim import Adam


def kernel(X, y=None, num_obs=None, likelihood="normal"):
    w = numpyro.sample("w", dist.Normal(jnp.zeros(X.shape[1]), 1.0).to_event(1))
    mu = X @ w
    if likelihood == "normal":
        numpyro.sample("y", dist.Normal(mu, 1.0), obs=y)
    else:
        numpyro.sample("y", dist.Laplace(mu, 1.0), obs=y)


class Model:
    def __init__(self, kernel):
        self.svi = SVI(kernel, AutoNormal(kernel), Adam(1e-2), Trace_ELBO())
        self._update = None
        self.state = None

    def train_on_batch(self, X, y, **kwargs):
        if self.state is None:
            self.state = self.svi.init(jax.random.PRNGKey(0), X, y, **kwargs)
        if self._update is None:
            static = tuple(k for k, v in kwargs.items() if not isinstance(v, jax.Array))
            self._update = jax.jit(self.svi.update, static_argnames=static)
        self.state, loss = self._update(self.state, X, y, **kwargs)
        return loss


X = jax.random.normal(jax.random.PRNGKey(1), (16, 2))
y = X @ jnp.array([1.0, -1.0])
model = Model(kernel)
try:
    model.train_on_batch(X, y, num_obs=16)
    model.train_on_batch(X, y, likelihood="laplace")
    _report({"jit(update)"}, 2)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
