# source: https://github.com/AnimatedRNG/nerf-jax/commit/6d9bb163c1d9d4d97ef2d799d21f2e02fec352e3
# expect: unhashable-static at line 37
# runtime: ERROR ValueError
# why: sample_pdf marks rng (a PRNGKey array) static via static_argnums=(2, 3, 4); arrays are unhashable, so the call raises ValueError.
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


#!/usr/bin/env python3

import numpy as np
import jax
import jax.numpy as jnp
from jax import jit, vmap
# from jax.ops import index, index_update  # scaffolding: removed from jax; only used by helpers left out
import functools


@functools.partial(jit, static_argnums=(2, 3, 4))
def sample_pdf(bins, weights, num_samples, rng, det):
    """
    >>> rng = jax.random.PRNGKey(1010)

    >>> bins_np = np.random.randn(8).reshape(2, 4).astype(np.float32) * 10
    >>> weights_np = np.random.randn(8).reshape(2, 4).astype(np.float32) * 15

    >>> samples_torch = sample_pdf_torch(torch.from_numpy(bins_np),
    ...     torch.from_numpy(weights_np), 10, True).numpy()

    >>> bins = jnp.array(bins_np)
    >>> weights = jnp.array(weights_np)
    >>> samples = np.array(sample_pdf(bins, weights, 10, rng, True))

    >>> np.allclose(samples_torch, samples, 1e-3)
    True
    """
    weights = weights + 1e-5
    pdf = weights / jnp.sum(weights, axis=-1, keepdims=True)
    cdf = jnp.cumsum(pdf, -1)
    cdf = jnp.concatenate((jnp.zeros_like(cdf[..., :1]), cdf), -1)

    if det:
        u = jnp.linspace(0.0, 1.0, num_samples)
        u = jnp.repeat(jnp.expand_dims(u, 0), cdf.shape[:-1], axis=0)
    else:
        u = jax.random.uniform(rng, list(cdf.shape[:-1]) + [num_samples])

    inds = vmap(
        lambda cdf_i, u_i: jnp.searchsorted(cdf_i, u_i, side="right").astype(np.int32)
    )(cdf, u)

    below = jnp.maximum(0, inds - 1)
    above = jnp.minimum(cdf.shape[-1] - 1, inds)
    inds_g = jnp.stack((below, above), axis=-1)

    cdf_g = vmap(lambda cdf_i, inds_gi: cdf_i[inds_gi])(cdf, inds_g)
    bins_g = vmap(lambda bins_i, inds_gi: bins_i[inds_gi])(bins, inds_g)

    # don't know why we have to zero out the outliers?
    clean_inds = lambda arr, cutoff: jnp.where(inds_g < cutoff, arr, 0)
    cdf_g = clean_inds(cdf_g, cdf.shape[-1])
    bins_g = clean_inds(bins_g, bins.shape[-1])

    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom = jnp.where(denom < 1e-5, 1.0, denom)

    t = (u - cdf_g[..., 0]) / denom
    samples = bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])

    return samples


rng = jax.random.PRNGKey(1010)  # scaffolding: the docstring's example inputs
bins_np = np.random.randn(8).reshape(2, 4).astype(np.float32) * 10  # scaffolding
weights_np = np.random.randn(8).reshape(2, 4).astype(np.float32) * 15  # scaffolding
bins = jnp.array(bins_np)  # scaffolding
weights = jnp.array(weights_np)  # scaffolding
try:  # scaffolding
    samples = np.array(sample_pdf(bins, weights, 10, rng, False))  # scaffolding: the docstring's inputs, det=False as in training (det=True hits jnp.repeat(tuple), which jax 0.10 rejects)
    rng, subkey = jax.random.split(rng)  # scaffolding
    samples = np.array(sample_pdf(bins, weights, 10, subkey, False))  # scaffolding: a second call with a new key
    print(samples.shape)  # scaffolding
    _report({"jit(sample_pdf)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
