# source: https://github.com/markean/aimz/issues/275
# expect: none
# runtime: COMPILES 0 CALLS 4
# why: the fix (commit e1e8ced) keeps lax.map only under a trace and vmaps the closure when called eagerly, so repeated eager calls compile no scan program (0 jit(scan) compiles for 4 calls).

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
from jax import Array, lax, vmap
from jax.core import Tracer
from numpyro.handlers import mask, seed, substitute, trace
import jax.numpy as jnp  # scaffolding
import numpyro  # scaffolding
import numpyro.distributions as dist  # scaffolding
from jax import random  # scaffolding
from typing import Any  # scaffolding
from collections import OrderedDict  # scaffolding
from collections.abc import Callable, Mapping  # scaffolding


def _sample_forward(
    model: Callable,
    rng_keys: Array,
    return_sites: tuple[str, ...] | None,
    samples: dict[str, Array] | None,
    model_kwargs: Mapping[str, object] | None,
) -> dict[str, Array]:
    """Generates forward samples from a model conditioned on parameter draws."""  # (docstring trimmed)

    def _trace_one_sample(
        sample_input: tuple[Array, dict[str, Array]],
    ) -> dict[str, Array]:
        rng_key, sample = sample_input

        def _exclude_deterministic(msg: OrderedDict[str, Any]) -> Array | None:
            return sample.get(msg["name"]) if msg["type"] != "deterministic" else None

        masked_model = mask(model, mask=False)
        substituted_model = substitute(
            masked_model,
            substitute_fn=_exclude_deterministic,
        )
        model_trace = trace(seed(substituted_model, rng_seed=rng_key)).get_trace(
            **(model_kwargs or {}),
        )

        if return_sites is None:
            sites = {
                k
                for k, site in model_trace.items()
                if (site["type"] == "sample" and k not in sample)
                or (site["type"] == "deterministic")
            }
        else:
            sites = set(return_sites)

        return {k: v["value"] for k, v in model_trace.items() if k in sites}

    if isinstance(rng_keys, Tracer):
        return lax.map(_trace_one_sample, xs=(rng_keys, samples or {}))

    return vmap(_trace_one_sample)((rng_keys, samples or {}))


def model(X, y=None):  # scaffolding
    w = numpyro.sample("w", dist.Normal(0.0, 1.0))
    numpyro.sample("y", dist.Normal(w * X, 1.0), obs=y)


X = jnp.ones(4)  # scaffolding
keys = random.split(random.PRNGKey(0), 5)  # scaffolding
for _ in range(4):  # scaffolding: repeated eager predictions
    _sample_forward(model, keys, None, None, {"X": X})
_report({"jit(scan)"}, 4)  # scaffolding
