# source: https://github.com/nuclear-multimessenger-astronomy/jester/commit/0a0cd6839a31dfbbb16ffc8d2872ed202a34b138
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: The commit wraps the lax.map in one jax.jit (bs static) built once per evaluate_batch call; the 10 equal batches reuse one compile.

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
# (from __future__ import annotations dropped: it must open the file)  # scaffolding

import time
from typing import Any, Callable
import types  # scaffolding
import logging  # scaffolding

import numpy as np
import jax
import jax.numpy as jnp
from jaxtyping import Array, Float, PRNGKeyArray

logger = logging.getLogger("jester")  # scaffolding: was jesterTOV.logging_config.get_logger("jester")


class GaussianMRLikelihood:  # scaffolding: stands in for jester's combined GW/NICER likelihood
    def evaluate(self, params):  # scaffolding
        m, r = params["masses_EOS"], params["radii_EOS"]  # scaffolding
        return jax.scipy.special.logsumexp(-0.5 * ((m - 1.4) / 0.1) ** 2 - 0.5 * ((r - 12.0) / 0.5) ** 2)  # scaffolding


class EOSReweightingSampler:  # scaffolding: only the methods used here; was JesterSampler subclass
    def __init__(self, likelihood, config):  # scaffolding
        self.likelihood = likelihood  # scaffolding
        self.config = config  # scaffolding

    def make_eos_fn(self) -> Callable[[tuple[Array, Array, Array]], Array]:
        r"""Build a single-EOS log-likelihood callable for use with :func:`jax.lax.map`.

        Returns
        -------
        Callable
            ``f((masses, lambdas, radii)) → scalar log-likelihood``
        """
        likelihood = self.likelihood

        def f(args: tuple[Array, Array, Array]) -> Array:
            masses, lambdas, radii = args
            params = {
                "masses_EOS": masses,
                "Lambdas_EOS": lambdas,  # capital L — matches gw.py:303–304
                "radii_EOS": radii,
            }
            return likelihood.evaluate(params)

        return f

    def evaluate_batch(
        self,
        f: Callable[[tuple[Array, Array, Array]], Array],
        all_masses: Float[Array, "N L"],
        all_lambdas: Float[Array, "N L"],
        all_radii: Float[Array, "N L"],
    ) -> Float[Array, " N"]:
        r"""Evaluate *f* on all N EOS curves using :func:`jax.lax.map`.

        Splits the work into batches of ``config.batch_size`` curves and logs
        throughput/ETA after each batch is processed. The per-batch
        ``jax.lax.map`` call is wrapped in :func:`jax.jit` so that batches
        sharing the same shape (all but typically the last one) reuse a
        single compiled executable instead of retracing on every iteration
        of the Python loop.

        Parameters
        ----------
        f :
            Single-EOS evaluator returned by :meth:`make_eos_fn`.
        all_masses, all_lambdas, all_radii :
            Stacked JAX arrays of shape ``[N, L]``.

        Returns
        -------
        Float[Array, " N"]
            Log-likelihoods per EOS.
        """
        all_batches_time_start = time.monotonic()

        N = all_masses.shape[0]  # number of EOSs to process
        batch_size = self.config.batch_size

        # NOTE: it is a bit awkward that it seems batching is done twice
        # (Python loop + lax.map's own batch_size). However, using jax.vmap
        # here turned out to be a bit slower, so we keep this implementation.
        # `bs` is static since jax.lax.map requires a concrete Python int.
        jitted_map = jax.jit(
            lambda stacked, bs: jax.lax.map(f, stacked, batch_size=bs),
            static_argnums=1,
        )

        # Initialize everything for storing the results of the inference
        results: list[Array] = []
        start_time = time.monotonic()
        processed = 0

        # Loop over the batches
        for start in range(0, N, batch_size):
            end = min(start + batch_size, N)
            stacked = (
                all_masses[start:end],
                all_lambdas[start:end],
                all_radii[start:end],
            )
            current_bs = min(batch_size, end - start)

            batch_result: Float[Array, " _"] = jitted_map(stacked, current_bs)

            results.append(batch_result)
            processed = end

            elapsed = time.monotonic() - start_time
            fraction = processed / N
            eta = elapsed / fraction * (1.0 - fraction) if fraction > 0 else 0.0
            logger.info(
                f"EOS reweighting: {processed}/{N} EOS "
                f"({fraction * 100:.0f}%) | "
                f"elapsed {elapsed:.1f}s | ETA {eta:.1f}s"
            )

        log_likelihoods: Float[Array, " N"] = jnp.concatenate(results)

        all_batches_time_end = time.monotonic()
        logger.info(
            f"EOS reweighting: all EOS processed in {all_batches_time_end - all_batches_time_start:.1f}s"
        )

        return log_likelihoods


# --- usage as in EOSReweightingSampler.sample() ---
rng = np.random.default_rng(0)  # scaffolding
N, L = 40, 50  # scaffolding: 40 tabulated EOS curves on a 50-point mass grid
all_masses = jnp.asarray(np.sort(rng.uniform(0.5, 2.3, (N, L)), axis=1))  # scaffolding
all_lambdas = jnp.asarray(rng.uniform(10, 2000, (N, L)))  # scaffolding
all_radii = jnp.asarray(rng.uniform(10, 14, (N, L)))  # scaffolding
config = types.SimpleNamespace(batch_size=4)  # scaffolding: batch_size 4 (default 1000 would be one batch)
sampler = EOSReweightingSampler(GaussianMRLikelihood(), config)  # scaffolding
f = sampler.make_eos_fn()
log_likelihoods = sampler.evaluate_batch(f, all_masses, all_lambdas, all_radii)
_report({"jit(<lambda>)"}, 10)  # scaffolding
