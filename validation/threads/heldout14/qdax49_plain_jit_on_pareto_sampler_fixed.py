# source: https://github.com/adaptive-intelligent-robotics/QDax/pull/49
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR replaces the decoration with a plain @jax.jit; sample (static num_samples) then compiles once over three calls with the same sample count.
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
"""This file contains the class to define the repertoire used to
store individuals in the Multi-Objective MAP-Elites algorithm as
well as several variants."""

import sys
from functools import partial
from typing import Any, Tuple

import jax
import jax.numpy as jnp
from flax import struct

Genotype = Any  # scaffolding: qdax.types
Fitness = Descriptor = Centroid = RNGKey = jnp.ndarray  # scaffolding


class MapElitesRepertoire(struct.PyTreeNode):  # scaffolding: qdax's base repertoire fields
    genotypes: Genotype
    fitnesses: Fitness
    descriptors: Descriptor
    centroids: Centroid


# scaffolding: jax.tree_leaves/jax.tree_map were removed from JAX; the class below uses the
# jax.tree_util spellings.


class MOMERepertoire(MapElitesRepertoire):
    """Class for the repertoire in Multi Objective Map Elites

    This class inherits from MAPElitesRepertoire. The stored data
    is the same: genotypes, fitnesses, descriptors, centroids.

    The shape of genotypes is (in the case where it's an array):
    (num_centroids, pareto_front_length, genotype_dim).
    When the genotypes is a PyTree, the two first dimensions are the same
    but the third will depend on the leafs.

    The shape of fitnesses is: (num_centroids, pareto_front_length, num_criteria)

    The shape of descriptors and centroids are:
    (num_centroids, num_descriptors, pareto_front_length).

    Inherited functions: save and load.
    """

    @property
    def repertoire_capacity(self) -> int:
        """Returns the maximum number of solutions the repertoire can
        contain which corresponds to the number of cells times the
        maximum pareto front length.

        Returns:
            The repertoire capacity.
        """
        first_leaf = jax.tree_util.tree_leaves(self.genotypes)[0]
        return int(first_leaf.shape[0] * first_leaf.shape[1])

    @jax.jit
    def _sample_in_masked_pareto_front(
        self,
        pareto_front_genotypes: Genotype,
        mask: jnp.ndarray,
        random_key: RNGKey,
    ) -> Genotype:
        """Sample one single genotype in masked pareto front.

        Note: do not retrieve a random key because this function
        is to be vmapped. The public method that uses this function
        will return a random key

        Args:
            pareto_front_genotypes: the genotypes of a pareto front
            mask: a mask associated to the front
            random_key: a random key to handle stochastic operations

        Returns:
            A single genotype among the pareto front.
        """
        p = (1.0 - mask) / jnp.sum(1.0 - mask)

        genotype_sample = jax.tree_util.tree_map(
            lambda x: jax.random.choice(random_key, x, shape=(1,), p=p),
            pareto_front_genotypes,
        )

        return genotype_sample

    @partial(jax.jit, static_argnames=("num_samples",))
    def sample(
        self, random_key: RNGKey, num_samples: int
    ) -> Tuple[jnp.ndarray, RNGKey]:
        """Sample elements in the repertoire.

        This method sample a non-empty pareto front, and then sample
        genotypes from this pareto front.

        Args:
            random_key: a random key to handle stochasticity.
            num_samples: number of samples to retrieve from the repertoire.

        Returns:
            A sample of genotypes.
        """

        # create sampling probability for the cells
        repertoire_empty = jnp.any(self.fitnesses == -jnp.inf, axis=-1)
        occupied_cells = jnp.any(~repertoire_empty, axis=-1)

        p = occupied_cells / jnp.sum(occupied_cells)

        # possible indices - num cells
        indices = jnp.arange(start=0, stop=repertoire_empty.shape[0])

        # choose idx - among indices of cells that are not empty
        random_key, subkey = jax.random.split(random_key)
        cells_idx = jax.random.choice(subkey, indices, shape=(num_samples,), p=p)

        # get genotypes (front) from the chosen indices
        pareto_front_genotypes = jax.tree_util.tree_map(lambda x: x[cells_idx], self.genotypes)

        # prepare second sampling function
        sample_in_fronts = jax.vmap(self._sample_in_masked_pareto_front)

        # sample genotypes from the pareto front
        random_key, subkey = jax.random.split(random_key)
        subkeys = jax.random.split(subkey, num=num_samples)
        sampled_genotypes = sample_in_fronts(  # type: ignore
            pareto_front_genotypes=pareto_front_genotypes,
            mask=repertoire_empty[cells_idx],
            random_key=subkeys,
        )

        # remove unnecessary dimension
        sampled_genotypes = jax.tree_util.tree_map(lambda x: x.squeeze(), sampled_genotypes)

        return sampled_genotypes, random_key


# scaffolding: a 6-cell repertoire with Pareto fronts of length 3, 2 objectives, 4-dim genotypes
key = jax.random.PRNGKey(0)
k1, k2, key = jax.random.split(key, 3)
fitnesses = jax.random.normal(k1, (6, 3, 2))
fitnesses = fitnesses.at[::2, 2].set(-jnp.inf)
repertoire = MOMERepertoire(
    genotypes=jax.random.normal(k2, (6, 3, 4)),
    fitnesses=fitnesses,
    descriptors=jnp.zeros((6, 3, 2)),
    centroids=jnp.zeros((6, 2)),
)
for _ in range(3):
    samples, key = repertoire.sample(key, num_samples=5)
_report({"jit(sample)"}, 3)
