# source: https://github.com/scverse/scvi-tools/pull/1385
# expect: jit-in-loop-or-body at line 90
# runtime: COMPILES 3 CALLS 12
# why: get_latent_representation decorates a fresh `_get_val` closure with jax.jit on every call, so each call of the method (same data, same settings) traces and compiles it again.
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


from typing import NamedTuple, Optional, Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import numpyro.distributions as dist
from jax import random


class VAEOutput(NamedTuple):  # scaffolding: the fields get_latent_representation reads
    qz: dist.Normal  # scaffolding
    z: jnp.ndarray  # scaffolding


class JaxVAE(nn.Module):  # scaffolding: a one-layer stand-in for scvi's JaxVAE encoder
    n_latent: int = 4  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, array_dict, n_samples: int = 1):  # scaffolding
        x = jnp.log1p(array_dict["X"])  # scaffolding
        mean = nn.Dense(self.n_latent)(x)  # scaffolding
        stddev = jnp.exp(0.5 * nn.Dense(self.n_latent)(x))  # scaffolding
        qz = dist.Normal(mean, stddev)  # scaffolding
        sample_shape = () if n_samples == 1 else (n_samples,)  # scaffolding (as in _jaxvae.py)
        z = qz.rsample(self.make_rng("z"), sample_shape=sample_shape)  # scaffolding
        return VAEOutput(qz, z)  # scaffolding


class JaxSCVI:  # scaffolding: the trained-model state get_latent_representation uses
    def __init__(self, data, batch_size=32):  # scaffolding
        self.data, self.batch_size = data, batch_size  # scaffolding
        module = JaxVAE()  # scaffolding
        rngs = {"params": random.PRNGKey(0), "z": random.PRNGKey(1)}  # scaffolding
        params = module.init(rngs, {"X": data[:batch_size]})["params"]  # scaffolding
        self.bound_module = module.bind({"params": params}, rngs={"z": random.PRNGKey(2)})  # scaffolding: as set at the end of train()

    def _check_if_trained(self, warn=False):  # scaffolding
        pass  # scaffolding

    def _validate_anndata(self, adata):  # scaffolding
        return self.data if adata is None else adata  # scaffolding

    def _make_data_loader(self, adata, indices=None, batch_size=None, iter_ndarray=True):  # scaffolding
        bs = batch_size or self.batch_size  # scaffolding
        return [{"X": adata[i:i + bs]} for i in range(0, len(adata), bs)]  # scaffolding

    # scvi/model/_jaxscvi.py at dac2589c9 (PR #1385, merged); docstring cut
    def get_latent_representation(
        self,
        adata: Optional[np.ndarray] = None,
        indices: Optional[Sequence[int]] = None,
        give_mean: bool = True,
        mc_samples: int = 1,
        batch_size: Optional[int] = None,
    ) -> np.ndarray:
        self._check_if_trained(warn=False)

        adata = self._validate_anndata(adata)
        scdl = self._make_data_loader(
            adata=adata, indices=indices, batch_size=batch_size, iter_ndarray=True
        )

        @jax.jit
        def _get_val(array_dict):
            out = self.bound_module(array_dict, n_samples=mc_samples)
            return out

        latent = []
        for array_dict in scdl:
            out = _get_val(array_dict)
            if give_mean:
                z = out.qz.mean
            else:
                z = out.z
            latent.append(z)
        concat_axis = 0 if ((mc_samples == 1) or give_mean) else 1
        latent = jnp.concatenate(latent, axis=concat_axis)

        return np.array(jax.device_get(latent))


counts = np.random.RandomState(0).poisson(2.0, size=(128, 20)).astype(np.float32)  # scaffolding: 128 cells, 20 genes
model = JaxSCVI(counts)  # scaffolding
for _ in range(3):  # scaffolding: the latent space asked for three times (e.g. for three plots)
    latent = model.get_latent_representation()  # scaffolding
_report({"jit(_get_val)"}, 12)  # scaffolding: 4 minibatches per call
