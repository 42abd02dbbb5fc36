# source: https://github.com/adaptive-intelligent-robotics/QDax/pull/122
# expect: jit-in-loop-or-body at line 205
# runtime: COMPILES 4 CALLS 4
# why: Each logging loop passes map_elites.scan_update (a jitted method fetched off the instance, a fresh bound object every time) to an eager lax.scan, so the scan body is retraced and the scan recompiled on every loop.

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
"""Core components of the MAP-Elites algorithm."""


import time
from functools import partial
from typing import Any, Callable, NamedTuple, Optional, Tuple

import jax
import jax.numpy as jnp


class MapElitesRepertoire(NamedTuple):  # scaffolding: small stand-in for qdax's repertoire
    genotypes: jnp.ndarray
    fitnesses: jnp.ndarray
    descriptors: jnp.ndarray
    centroids: jnp.ndarray

    @classmethod
    def init(cls, genotypes, fitnesses, descriptors, centroids):  # scaffolding
        rep = cls(jnp.zeros((centroids.shape[0], genotypes.shape[1])),
                  jnp.full((centroids.shape[0],), -jnp.inf), jnp.zeros_like(centroids), centroids)
        return rep.add(genotypes, descriptors, fitnesses)

    def add(self, genotypes, descriptors, fitnesses):  # scaffolding
        d = jnp.sum((descriptors[:, None, :] - self.centroids[None]) ** 2, axis=-1)
        idx = jnp.argmin(d, axis=1)
        best = jax.ops.segment_max(fitnesses, idx, num_segments=self.centroids.shape[0])
        better = best > self.fitnesses
        win = jnp.zeros(self.centroids.shape[0], dtype=jnp.int32).at[idx].set(jnp.arange(idx.shape[0]))
        return MapElitesRepertoire(
            jnp.where(better[:, None], genotypes[win], self.genotypes),
            jnp.where(better, best, self.fitnesses),
            jnp.where(better[:, None], descriptors[win], self.descriptors),
            self.centroids,
        )


class MixingEmitter:  # scaffolding: isoline-style variation of random elites
    def __init__(self, batch_size, iso_sigma):
        self.batch_size = batch_size
        self.iso_sigma = iso_sigma

    def init(self, init_genotypes, random_key):
        return None, random_key

    def emit(self, repertoire, emitter_state, random_key):
        random_key, k1, k2 = jax.random.split(random_key, 3)
        p = jnp.isfinite(repertoire.fitnesses) / jnp.sum(jnp.isfinite(repertoire.fitnesses))
        idx = jax.random.choice(k1, repertoire.fitnesses.shape[0], (self.batch_size,), p=p)
        x = repertoire.genotypes[idx]
        return x + self.iso_sigma * jax.random.normal(k2, x.shape), random_key

    def state_update(self, emitter_state, **kwargs):
        return emitter_state


def scoring_fn(genotypes, random_key):  # scaffolding: rastrigin fitness, first two coords as descriptor
    fit = -jnp.sum(genotypes ** 2 - 10 * jnp.cos(2 * jnp.pi * genotypes), axis=-1)
    return fit, jax.nn.sigmoid(genotypes[:, :2]), {}, random_key


def metrics_function(repertoire):  # scaffolding
    ok = jnp.isfinite(repertoire.fitnesses)
    return {"qd_score": jnp.sum(jnp.where(ok, repertoire.fitnesses, 0.0)), "coverage": jnp.mean(ok)}


class MAPElites:
    """Core elements of the MAP-Elites algorithm (qdax/core/map_elites.py; docstrings trimmed)."""

    def __init__(
        self,
        scoring_function: Callable,
        emitter: Any,
        metrics_function: Callable,
    ) -> None:
        self._scoring_function = scoring_function
        self._emitter = emitter
        self._metrics_function = metrics_function

    @partial(jax.jit, static_argnames=("self",))
    def init(self, init_genotypes, centroids, random_key):
        # score initial genotypes
        fitnesses, descriptors, extra_scores, random_key = self._scoring_function(
            init_genotypes, random_key
        )

        # init the repertoire
        repertoire = MapElitesRepertoire.init(
            genotypes=init_genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            centroids=centroids,
        )

        # get initial state of the emitter
        emitter_state, random_key = self._emitter.init(
            init_genotypes=init_genotypes, random_key=random_key
        )

        # update emitter state
        emitter_state = self._emitter.state_update(
            emitter_state=emitter_state,
            repertoire=repertoire,
            genotypes=init_genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            extra_scores=extra_scores,
        )

        return repertoire, emitter_state, random_key

    @partial(jax.jit, static_argnames=("self",))
    def update(self, repertoire, emitter_state, random_key):
        # generate offsprings with the emitter
        genotypes, random_key = self._emitter.emit(
            repertoire, emitter_state, random_key
        )
        # scores the offsprings
        fitnesses, descriptors, extra_scores, random_key = self._scoring_function(
            genotypes, random_key
        )

        # add genotypes in the repertoire
        repertoire = repertoire.add(genotypes, descriptors, fitnesses)

        # update emitter state after scoring is made
        emitter_state = self._emitter.state_update(
            emitter_state=emitter_state,
            repertoire=repertoire,
            genotypes=genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            extra_scores=extra_scores,
        )

        # update the metrics
        metrics = self._metrics_function(repertoire)

        return repertoire, emitter_state, metrics, random_key

    @partial(jax.jit, static_argnames=("self",))
    def scan_update(self, carry, unused):
        repertoire, emitter_state, random_key = carry
        (repertoire, emitter_state, metrics, random_key,) = self.update(
            repertoire,
            emitter_state,
            random_key,
        )

        return (repertoire, emitter_state, random_key), metrics


batch_size = 16  # scaffolding: smaller than the notebook
num_iterations = 40  # scaffolding
log_period = 10
random_key = jax.random.PRNGKey(42)
random_key, subkey = jax.random.split(random_key)
init_variables = jax.random.uniform(subkey, (batch_size, 4), minval=-1.0, maxval=1.0)  # scaffolding
centroids = jnp.stack(jnp.meshgrid(jnp.linspace(0, 1, 8), jnp.linspace(0, 1, 8)), -1).reshape(-1, 2)  # scaffolding

map_elites = MAPElites(
    scoring_function=scoring_fn,
    emitter=MixingEmitter(batch_size=batch_size, iso_sigma=0.05),
    metrics_function=metrics_function,
)
repertoire, emitter_state, random_key = map_elites.init(init_variables, centroids, random_key)

num_loops = int(num_iterations / log_period)
all_metrics = {}
logged = []  # scaffolding: stands in for the CSVLogger

# main loop
for i in range(num_loops):
    start_time = time.time()
    # main iterations
    (repertoire, emitter_state, random_key,), metrics = jax.lax.scan(
        map_elites.scan_update,
        (repertoire, emitter_state, random_key),
        (),
        length=log_period,
    )
    timelapse = time.time() - start_time

    # log metrics
    logged_metrics = {"time": timelapse, "loop": 1+i, "iteration": 1 + i*log_period}
    for key, value in metrics.items():
        # take last value
        logged_metrics[key] = value[-1]

        # take all values
        if key in all_metrics.keys():
            all_metrics[key] = jnp.concatenate([all_metrics[key], value])
        else:
            all_metrics[key] = value

    logged.append(logged_metrics)  # scaffolding

_report({"jit(scan)"}, num_loops)  # scaffolding
