# source: https://github.com/nuclear-multimessenger-astronomy/jester/commit/0a0cd6839a31dfbbb16ffc8d2872ed202a34b138
# expect: jit-in-loop-or-body at line 130
# runtime: COMPILES 10 CALLS 10
# why: _evaluate_batch calls jax.lax.map eagerly inside the Python chunk loop; every call traces f again and compiles a new scan, so 10 equal-shaped chunks compile jit(scan) 10 times.

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

    def _make_eos_fn(self) -> Callable[[tuple[Array, Array, Array]], Array]:
        r"""Build a single-EOS log-likelihood callable for use with :func:`jax.lax.map`.

        Returns
        -------
        Callable
            ``f((masses, lambdas, radii)) → scalar log-weight``
        """
        likelihood = self.likelihood

        def f(args: tuple[Array, Array, Array]) -> Array:
            masses, lambdas, radii = args
            params = {
                "masses_EOS": masses,
                "Lambdas_EOS": lambdas,   # capital L — matches gw.py:303–304
                "radii_EOS": radii,
            }
            return likelihood.evaluate(params)

        return f

    def _evaluate_batch(
        self,
        f: Callable[[tuple[Array, Array, Array]], Array],
        all_masses: Float[Array, "N L"],
        all_lambdas: Float[Array, "N L"],
        all_radii: Float[Array, "N L"],
    ) -> Float[Array, " N"]:
        r"""Evaluate *f* on all N EOS curves using :func:`jax.lax.map`.

        Splits the work into progress chunks (controlled by
        ``config.progress_interval``) so that throughput and ETA can be logged
        at regular intervals.  Within each chunk, auto-tunes ``batch_size``:
        starts at ``config.batch_size`` (or chunk size if ``None``), halves
        on OOM, and reuses the found size for subsequent chunks.

        Parameters
        ----------
        f :
            Single-EOS evaluator returned by :meth:`_make_eos_fn`.
        all_masses, all_lambdas, all_radii :
            Stacked JAX arrays of shape ``[N, L]``.

        Returns
        -------
        Float[Array, " N"]
            Log-likelihood per EOS.
        """
        N = all_masses.shape[0]
        progress_interval = self.config.progress_interval

        # Determine Python-level chunk size for progress reporting.
        if progress_interval > 0.0 and N > 1:
            n_chunks = max(1, round(1.0 / progress_interval))
            chunk_size = max(1, (N + n_chunks - 1) // n_chunks)
        else:
            chunk_size = N  # single chunk — no intermediate progress

        # JAX-internal batch size (memory management); will be updated on OOM.
        found_batch_size: int = (
            self.config.batch_size if self.config.batch_size is not None else chunk_size
        )

        results: list[Array] = []
        start_time = time.monotonic()
        processed = 0

        for start in range(0, N, chunk_size):
            end = min(start + chunk_size, N)
            stacked = (all_masses[start:end], all_lambdas[start:end], all_radii[start:end])
            current_bs = min(found_batch_size, end - start)
            chunk_result: Float[Array, " _"] = jnp.empty(0)  # overwritten in the loop below

            while current_bs >= 1:
                try:
                    chunk_result = jax.lax.map(
                        f, stacked, batch_size=current_bs
                    )
                    jax.block_until_ready(chunk_result)
                    if current_bs != found_batch_size:
                        logger.info(f"Auto-reduced batch_size to {current_bs}")
                    found_batch_size = current_bs
                    break
                except Exception as exc:  # noqa: BLE001
                    if current_bs == 1:
                        raise RuntimeError(
                            f"EOS evaluation failed even at batch_size=1: {exc}"
                        ) from exc
                    prev = current_bs
                    current_bs = max(1, current_bs // 2)
                    logger.warning(
                        f"batch_size={prev} failed ({type(exc).__name__}); "
                        f"retrying with batch_size={current_bs}"
                    )

            results.append(chunk_result)
            processed = end

            if progress_interval > 0.0:
                elapsed = time.monotonic() - start_time
                fraction = processed / N
                eta = elapsed / fraction * (1.0 - fraction) if fraction > 0 else 0.0
                logger.info(
                    f"EOS reweighting: {processed}/{N} EOS "
                    f"({fraction * 100:.0f}%) | "
                    f"elapsed {elapsed:.1f}s | ETA {eta:.1f}s"
                )

        log_weights: Float[Array, " N"] = jnp.concatenate(results)
        return log_weights


# --- usage as in EOSReweightingSampler.sample() ---
rng = np.random.default_rng(0)  # scaffolding
N, L = 40, 50  # scaffolding: 40 tabulated EOS curves on a 50-point mass grid
all_masses = jnp.asarray(np.sort(rng.uniform(0.5, 2.3, (N, L)), axis=1))  # scaffolding
all_lambdas = jnp.asarray(rng.uniform(10, 2000, (N, L)))  # scaffolding
all_radii = jnp.asarray(rng.uniform(10, 14, (N, L)))  # scaffolding
config = types.SimpleNamespace(batch_size=None, progress_interval=0.1)  # scaffolding: the config defaults of this commit
sampler = EOSReweightingSampler(GaussianMRLikelihood(), config)  # scaffolding
f = sampler._make_eos_fn()
log_likelihoods = sampler._evaluate_batch(f, all_masses, all_lambdas, all_radii)
_report({"jit(scan)"}, 10)  # scaffolding
