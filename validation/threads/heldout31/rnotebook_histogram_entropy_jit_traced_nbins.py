# source: https://github.com/jejjohnson/research_notebook/blob/89559503c6fb2b95526dd2406fd40343ac288c9f/research_notebook/content/notes/info_theory/histogram.ipynb
# expect: trace-time-error at line 53
# runtime: ERROR ConcretizationTypeError
# why: Under jit the number of histogram bins is computed from the data (ceil of range / Scott bin width) and passed as num to jnp.linspace, which needs a concrete integer, so tracing raises ConcretizationTypeError (the notebook's saved output shows the same error).

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
# (notebook research_notebook/content/notes/info_theory/histogram.ipynb flattened: cells 32-34)
from functools import partial  # scaffolding: the notebook used jax.partial, removed from jax

# cell 32
import jax.numpy as jnp
from jax.scipy.special import entr

def histogram_entropy(data, bins=None):
    """Estimate univariate entropy with a histogram
    
    Notes
    -----
    * uses scott's method
    * entropy is in nats
    """
    # histogram bin width (scotts)
    bin_width = 3.5 * jnp.std(data) / (data.shape[0] ** (1/3))
    
    if bins is None:
        # histogram bins
        nbins = jnp.ceil((data.max() - data.min()) / bin_width)
        nbins = nbins.astype(jnp.int32)

        # get bins with linspace
        bins = jnp.linspace(data.min(), data.max(), nbins)

#         # bins with arange (similar to astropy)
#         bins = data_min + bin_width * jnp.arange(0, nbins+1, 1)

    # histogram
    counts, bin_edges = jnp.histogram(data, bins=bins, density=False)
    
    # normalized the bin counts for a density
    pk = 1.0 * jnp.array(counts) / jnp.sum(counts)
    
    # calculate entropy
    H = entr(pk)
    H = jnp.sum(H)
    
    # add correction for continuous case
    delta = bin_edges[3] - bin_edges[2]
    H += jnp.log(delta)
    
    return H
# cell 33
import numpy as np
import jax

data = np.random.randn(1_000)
data = jnp.array(data, dtype=jnp.float32)

histogram_entropy(jnp.array(data).ravel(), 10)
# cell 34
try:  # scaffolding
    f = jax.jit(partial(histogram_entropy, bins=None))

    f(data.ravel())
    _report({"jit(histogram_entropy)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
