# source: https://github.com/adaptive-intelligent-robotics/QDax/pull/232
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: before PR #232, MAPElites.update, ask and tell are each wrapped in jax.jit with static self, and update calls the jitted ask and tell; the inner jits are inlined into update's trace and the same MAPElites object hashes the same every iteration, so update compiles once for all iterations (the PR removes the decorators for design reasons, not because they recompile).
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
from typing import Any, NamedTuple, Optional  # scaffolding
import jax
import jax.numpy as jnp  # scaffolding


class Repertoire(NamedTuple):  # scaffolding: stand-in for MapElitesRepertoire
    genotypes: jax.Array  # scaffolding
    fitnesses: jax.Array  # scaffolding

    def add(self, genotypes, descriptors, fitnesses, extra_scores):  # scaffolding
        better = fitnesses > self.fitnesses  # scaffolding
        return Repertoire(jnp.where(better[:, None], genotypes, self.genotypes), jnp.maximum(fitnesses, self.fitnesses))  # scaffolding


class MixingEmitter:  # scaffolding: stand-in emitter
    def emit(self, repertoire, emitter_state, key):  # scaffolding
        return repertoire.genotypes + 0.1 * jax.random.normal(key, repertoire.genotypes.shape), {}  # scaffolding

    def state_update(self, emitter_state, repertoire, genotypes, fitnesses, descriptors, extra_scores):  # scaffolding
        return emitter_state  # scaffolding


class MAPElites:
    def __init__(self, scoring_function, emitter, metrics_function, repertoire_init=None) -> None:
        self._scoring_function = scoring_function
        self._emitter = emitter
        self._metrics_function = metrics_function
        self._repertoire_init = repertoire_init

    @partial(jax.jit, static_argnames=("self",))
    def update(self, repertoire, emitter_state, key):
        """Performs one iteration of the MAP-Elites algorithm."""
        if self._scoring_function is None:
            raise ValueError("Scoring function is not set.")

        # generate offsprings with the emitter
        key, subkey = jax.random.split(key)
        genotypes, extra_info = self.ask(repertoire, emitter_state, subkey)

        # scores the offsprings
        key, subkey = jax.random.split(key)
        (fitnesses, descriptors, extra_scores) = self._scoring_function(
            genotypes, subkey
        )

        repertoire, emitter_state, metrics = self.tell(
            genotypes=genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            repertoire=repertoire,
            emitter_state=emitter_state,
            extra_scores=extra_scores,
            extra_info=extra_info,
        )
        return repertoire, emitter_state, metrics

    @partial(jax.jit, static_argnames=("self",))
    def ask(self, repertoire, emitter_state, key):
        """Ask the emitter to generate a new batch of genotypes."""
        key, subkey = jax.random.split(key)
        genotypes, extra_info = self._emitter.emit(repertoire, emitter_state, subkey)
        return genotypes, extra_info

    @partial(jax.jit, static_argnames=("self",))
    def tell(self, genotypes, fitnesses, descriptors, repertoire, emitter_state, extra_scores=None, extra_info=None):
        """Add new genotypes to the repertoire and update the emitter state."""
        if extra_scores is None:
            extra_scores = {}
        if extra_info is None:
            extra_info = {}
        # add genotypes in the repertoire
        repertoire = repertoire.add(genotypes, descriptors, fitnesses, extra_scores)

        # update emitter state after scoring is made
        emitter_state = self._emitter.state_update(
            emitter_state=emitter_state,
            repertoire=repertoire,
            genotypes=genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            extra_scores={**extra_scores, **extra_info},
        )

        # update the metrics
        metrics = self._metrics_function(repertoire)

        return repertoire, emitter_state, metrics


def scoring_fn(genotypes, key):  # scaffolding
    return -jnp.sum(genotypes**2, axis=1), genotypes[:, :2], {}  # scaffolding


map_elites = MAPElites(scoring_fn, MixingEmitter(), lambda r: {"max_fitness": jnp.max(r.fitnesses)})  # scaffolding
repertoire = Repertoire(jnp.ones((8, 3)), jnp.full(8, -jnp.inf, dtype=jnp.float32))  # scaffolding
emitter_state = None  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
calls = 0  # scaffolding
for _ in range(5):  # scaffolding: main loop as in the QDax examples
    key, subkey = jax.random.split(key)  # scaffolding
    repertoire, emitter_state, metrics = map_elites.update(repertoire, emitter_state, subkey)  # scaffolding
    calls += 1  # scaffolding
print(sorted(set(n for n in _COMPILED if n in ("jit(update)", "jit(ask)", "jit(tell)"))))  # scaffolding
_report({"jit(update)", "jit(ask)", "jit(tell)"}, calls)  # scaffolding
