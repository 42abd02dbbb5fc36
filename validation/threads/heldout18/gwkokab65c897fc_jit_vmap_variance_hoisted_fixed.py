# source: https://github.com/kokabsc/gwkokab/commit/65c897fcd0d328fead73001d328b8bf0bececf07
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The commit builds compute_variance_jit once before the loop, so all batches reuse one compile.

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


import jax
import jax.numpy as jnp
import numpy as np
import tqdm
from jax import Array


# src/gwkokab/utils/tools.py
def batch_and_remainder(x: Array, batch_size: int):
    leaves, treedef = jax.tree_util.tree_flatten(x)

    scan_leaves = []
    remainder_leaves = []

    for leaf in leaves:
        num_batches, _ = divmod(leaf.shape[0], batch_size)
        total_batch_elems = num_batches * batch_size
        scan_leaves.append(
            leaf[:total_batch_elems].reshape(num_batches, batch_size, *leaf.shape[1:])
        )
        remainder_leaves.append(leaf[total_batch_elems:])

    scan_tree = treedef.unflatten(scan_leaves)
    remainder_tree = treedef.unflatten(remainder_leaves)
    return scan_tree, remainder_tree


# scaffolding: stand-ins for the population model and the two variance estimators of kokab
variables_index = {"alpha": 0, "mmax": 1}
data_group = jnp.linspace(1.0, 2.0, 64)
log_ref_priors_group = jnp.zeros(64)
masks_group = jnp.ones(64, bool)


def dist_fn(alpha, mmax):  # scaffolding
    return (alpha, mmax)


def variance_of_single_event_likelihood(scaled_mixture, n_buckets, data_group, log_ref_priors_group, masks_group):  # scaffolding
    alpha, mmax = scaled_mixture
    logp = -alpha * jnp.log(data_group) - log_ref_priors_group
    return jnp.var(jnp.where(masks_group & (data_group < mmax), jnp.exp(logp), 0.0)) / n_buckets


def variance_of_poisson_mean_estimator(scaled_mixture):  # scaffolding
    alpha, mmax = scaled_mixture
    return jnp.exp(-alpha) / mmax


class Sage:  # scaffolding: only the variance cut of Sage.run
    n_buckets = 10
    variance_cut_threshold = 0.5

    def variance_cut(self, samples):
        def compute_variance(sample: Array) -> Array:
            scaled_mixture = dist_fn(
                **{var: sample[variables_index[var]] for var in variables_index}
            )
            variance = variance_of_single_event_likelihood(
                scaled_mixture,
                self.n_buckets,
                data_group,
                log_ref_priors_group,
                masks_group,
            ) + variance_of_poisson_mean_estimator(scaled_mixture)
            return variance

        mask = None
        max_variance = 0.0
        min_variance = float("inf")

        batched_samples, remainder_samples = batch_and_remainder(
            samples, batch_size=1000
        )
        n_batches = batched_samples.shape[0]
        compute_variance_jit = jax.jit(jax.vmap(compute_variance))
        for i in tqdm.tqdm(
            range(n_batches + int(remainder_samples.shape[0] > 0)),
            desc="Computing variance of likelihood estimator",
        ):
            if i == n_batches:  # process remainder samples
                variance = jax.vmap(compute_variance)(remainder_samples)
            else:  # process full batch
                variance = compute_variance_jit(batched_samples[i])

            variance = np.nan_to_num(variance, nan=float("inf"))  # type: ignore

            if mask is None:
                mask = variance < self.variance_cut_threshold
            else:
                mask = np.concatenate(
                    (mask, variance < self.variance_cut_threshold), axis=0
                )  # type: ignore

            max_variance = max(max_variance, np.max(variance))  # type: ignore
            min_variance = min(min_variance, np.min(variance))  # type: ignore
        return mask, n_batches


samples = jax.random.uniform(jax.random.PRNGKey(0), (5300, 2), minval=1.0, maxval=3.0)  # scaffolding: 5 full batches and a remainder
mask, calls = Sage().variance_cut(samples)  # scaffolding
_report({"jit(compute_variance)"}, calls)
