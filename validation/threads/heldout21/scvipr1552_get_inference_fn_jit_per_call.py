# source: https://github.com/scverse/scvi-tools/pull/1552
# expect: jit-in-loop-or-body at line 85
# runtime: COMPILES 3 CALLS 6
# why: get_inference_fn wraps a fresh closure _run_inference in jax.jit each time get_latent_representation runs, so every call of get_latent_representation traces and compiles the inference again (3 calls of 2 batches: 3 compiles).
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
# scverse/scvi-tools PR #1552 (5e3d92e62): JaxModuleWrapper.get_inference_fn/_bound_module and JaxSCVI.get_latent_representation as merged
from typing import Any, Dict, Optional, Sequence  # scaffolding
import numpy as np  # scaffolding
import flax  # scaffolding
import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp
from jax import random  # scaffolding


@flax.struct.dataclass
class Normal:  # scaffolding: numpyro.distributions.Normal stand-in (a pytree with .mean)
    mean: jnp.ndarray
    scale: jnp.ndarray


class JaxVAE(nn.Module):  # scaffolding: scvi.module.JaxVAE cut to an encoder
    n_latent: int = 4

    @nn.compact
    def inference(self, x, n_samples=1):  # scaffolding
        h = nn.Dense(self.n_latent * 2)(jnp.log1p(x))
        mean, logvar = jnp.split(h, 2, axis=-1)
        qz = Normal(mean, jnp.exp(0.5 * logvar))
        z = mean + qz.scale * random.normal(self.make_rng("z"), mean.shape)
        return {"qz": qz, "z": z}

    def _get_inference_input(self, array_dict):  # scaffolding
        return {"x": array_dict["X"]}


class JaxModuleWrapper:
    def __init__(self, module, params, seed=0):  # scaffolding: constructor cut down
        self.module = module
        self.params = params
        self.batch_stats = {}
        self._rngs = {"z": random.PRNGKey(seed)}

    @property
    def rngs(self) -> Dict[str, jnp.ndarray]:
        return self._split_rngs()

    def _split_rngs(self):
        new_rngs = {}
        ret_rngs = {}
        for k, v in self._rngs.items():
            new_rngs[k], ret_rngs[k] = random.split(v)
        self._rngs = new_rngs
        return ret_rngs

    @property
    def _bound_module(self):
        return self.module.bind(
            {"params": self.params, "batch_stats": self.batch_stats},
            rngs=self.rngs,
        )

    def get_inference_fn(self, mc_samples: int = 1):
        bound_module = self._bound_module

        @jax.jit
        def _run_inference(array_dict):
            inference_input = bound_module._get_inference_input(array_dict)
            out = bound_module.inference(**inference_input, n_samples=mc_samples)
            return out

        return _run_inference


class JaxSCVI:
    def __init__(self, module, data):  # scaffolding
        self.module = module
        self.data = data

    def _make_data_loader(self, adata=None, indices=None, batch_size=None, iter_ndarray=True):  # scaffolding
        return [{"X": self.data[i:i + 64]} for i in range(0, len(self.data), 64)]

    def get_latent_representation(
        self,
        adata=None,
        indices: Optional[Sequence[int]] = None,
        give_mean: bool = True,
        mc_samples: int = 1,
        batch_size: Optional[int] = None,
    ) -> np.ndarray:
        scdl = self._make_data_loader(
            adata=adata, indices=indices, batch_size=batch_size, iter_ndarray=True
        )

        run_inference = self.module.get_inference_fn(mc_samples=mc_samples)

        latent = []
        for array_dict in scdl:
            out = run_inference(array_dict)
            if give_mean:
                z = out["qz"].mean
            else:
                z = out["z"]
            latent.append(z)
        concat_axis = 0 if ((mc_samples == 1) or give_mean) else 1
        latent = jnp.concatenate(latent, axis=concat_axis)

        return np.array(jax.device_get(latent))


data = jnp.asarray(np.random.default_rng(0).poisson(2.0, (128, 10)), jnp.float32)  # scaffolding
vae = JaxVAE()  # scaffolding
params = vae.init({"params": random.PRNGKey(0), "z": random.PRNGKey(1)}, data[:2], method=JaxVAE.inference)["params"]  # scaffolding
model = JaxSCVI(JaxModuleWrapper(vae, params), data)  # scaffolding
for _ in range(3):  # scaffolding: e.g. latent for several plots; 2 batches each
    latent = model.get_latent_representation()  # scaffolding
_report({"jit(_run_inference)"}, 6)  # scaffolding
