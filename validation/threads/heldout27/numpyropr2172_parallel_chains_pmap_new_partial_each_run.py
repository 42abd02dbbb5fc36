# source: https://github.com/pyro-ppl/numpyro/pull/2172
# expect: jit-in-loop-or-body at line 64
# runtime: COMPILES 3 CALLS 3
# why: with chain_method='parallel' MCMC.run wraps a new functools.partial in jax.pmap on every call, and pmap (jit of shard_map) caches by function identity, so each run in the loop compiles jit(_fun) again.
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


"""
Minimal reproducer for numpyro MCMC memory leak with parallel chains.

numpyro's MCMC.run() creates a new functools.partial each call and wraps it
in jax.pmap. Since jax >=0.8.0, pmap is implemented as jit(shard_map), and
jit caches by function identity. A new partial = new identity = new trace +
compilation that is never freed.
"""

# from __future__ import annotations  # scaffolding: commented out; a __future__ import must open the file, where the harness is, and these annotations run without it

import gc

import numpyro
import numpyro.distributions as dist
import psutil
from jax import random
from numpyro.infer import MCMC, NUTS


def get_rss_mib() -> float:
    return psutil.Process().memory_info().rss / (1024**2)


def model() -> None:
    x = numpyro.sample("x", dist.Normal(0, 1))
    numpyro.sample("obs", dist.Normal(x, 0.1), obs=1.0)


def main() -> None:
    numpyro.set_host_device_count(4)
    rng_key = random.key(0)

    mcmc = MCMC(NUTS(model), num_warmup=10, num_samples=10, num_chains=4, progress_bar=False, chain_method="parallel")

    rss_start = get_rss_mib()
    for _ in range(3):  # scaffolding: range(50) in the PR, cut to 3
        mcmc.run(rng_key)
        gc.collect()
    rss_end = get_rss_mib()
    print(f"RSS start {rss_start:.1f} MiB, end {rss_end:.1f} MiB")  # scaffolding: the PR's own print is cut off in the stored excerpt


main()  # scaffolding: the script's `if __name__ == "__main__": main()` tail is not in the stored excerpt
_report({"jit(_fun)"}, 3)  # scaffolding
