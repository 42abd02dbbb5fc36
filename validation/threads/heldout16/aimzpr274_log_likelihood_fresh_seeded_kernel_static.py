# source: https://github.com/markean/aimz/pull/274
# expect: changing-static at line 113
# runtime: COMPILES 3 CALLS 3
# why: log_likelihood wraps the model in a new numpyro seed handler on every call and passes it as the static `kernel` argument of the jitted log-likelihood, so the static argument is a new object each time and f recompiles on every call (3 compiles for 3 identical calls).
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
import numpy as np
import numpyro
import numpyro.distributions as dist
from jax import Array, jit, lax
from numpyro.handlers import seed, substitute, trace


# aimz/utils/_log_likelihood.py (docstring cut)
def _log_likelihood(
    model,
    samples,
    model_kwargs,
):
    def _loglik_one_sample(sample):
        substituted_model = substitute(model, sample) if sample else model
        model_trace = trace(substituted_model).get_trace(**(model_kwargs or {}))

        return {
            k: site["fn"].log_prob(site["value"])
            for k, site in model_trace.items()
            if site["type"] == "sample" and site["is_observed"]
        }

    if not samples:
        return {k: v[None, ...] for k, v in _loglik_one_sample({}).items()}

    return lax.map(_loglik_one_sample, xs=samples)


# aimz/utils/data/_sharding.py (docstring cut; the sharded mesh branch omitted)
def _create_sharded_log_likelihood(
    mesh,
    n_kwargs_array,
    n_kwargs_extra,
    shard_axis="obs",
):
    draws = shard_axis == "draw"

    def f(
        kernel,
        samples,
        param_input,
        param_output,
        kwargs_key,
        X,
        y,
        *args,
    ):
        return _log_likelihood(
            kernel,
            samples=samples,
            model_kwargs={
                param_input: X,
                param_output: y,
                **dict(zip(kwargs_key, args, strict=True)),
            },
        )[param_output]

    if mesh is None:
        return partial(
            jit,
            static_argnames=[
                "kernel",
                "param_input",
                "param_output",
                "kwargs_key",
            ],
        )(f)
    raise NotImplementedError  # scaffolding: sharded branch not reproduced


class ImpactModel:  # scaffolding: the parts of aimz.ImpactModel that log_likelihood uses
    def __init__(self, kernel, posterior, rng_key):  # scaffolding
        self.kernel, self.posterior, self.rng_key = kernel, posterior, rng_key  # scaffolding
        self.param_input, self.param_output = "X", "y"  # scaffolding
        self._loglik_fn = _create_sharded_log_likelihood(None, 0, 0)  # scaffolding: built once by the streamer

    def log_likelihood(self, X, y):  # scaffolding: validation, output files and batching cut
        # aimz/model/impact_model.py, before PR #274 (3237cb7^)
        # Seed once so tracing succeeds even when posterior is empty or only partially
        # covers latent sites.
        kernel = seed(self.kernel, rng_seed=self.rng_key)

        return self._loglik_fn(kernel=kernel, samples=self.posterior, param_input=self.param_input,  # scaffolding: the streamer's per-batch call
                               param_output=self.param_output, kwargs_key=(), X=X, y=y)  # scaffolding


def kernel(X, y=None):  # scaffolding: a linear regression model
    w = numpyro.sample("w", dist.Normal(0.0, 1.0).expand([X.shape[1]]))  # scaffolding
    numpyro.sample("y", dist.Normal(X @ w, 1.0), obs=y)  # scaffolding


rng = np.random.RandomState(0)  # scaffolding
X, y = rng.randn(20, 3).astype(np.float32), rng.randn(20).astype(np.float32)  # scaffolding
posterior = {"w": jnp.asarray(rng.randn(10, 3).astype(np.float32))}  # scaffolding: 10 fitted draws
model = ImpactModel(kernel, posterior, jax.random.PRNGKey(0))  # scaffolding
for _ in range(3):  # scaffolding: log_likelihood called three times on the fitted model
    model.log_likelihood(X, y)  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
