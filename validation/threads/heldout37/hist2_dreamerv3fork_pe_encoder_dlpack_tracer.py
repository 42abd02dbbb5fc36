# source: https://github.com/danijar/dreamerv3/commit/ff9e97fd64fe4365001cd55810c96dc40a7508f0
# expect: trace-time-error at line 64
# runtime: ERROR AttributeError
# why: The PEEncoder hands the image batch to PyTorch with torch.from_dlpack inside the jitted DreamerV3 train step, where x is a tracer with no buffer, so tracing raises (the commit message keeps the original TypeError traceback).
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
import jax
import jax.numpy as jnp
import torch


class PEModelStandIn(torch.nn.Module):  # scaffolding: stand-in for pe.VisionTransformer("PE-Core-B16-224")
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8 * 8 * 3, 1024)

    def forward(self, x):
        return self.proj(x.reshape(x.shape[0], -1))


class PEEncoder:  # scaffolding: the repo's PEEncoder(Encoder) is a ninjax Module
  """
  Use facebook perception encoder to encode image observation producing a single 1024 vector.
  Compared to default vector of length 4x4x256=4096.
  """
  imgkeys = ("image",)  # scaffolding

  def __init__(self):
    model = PEModelStandIn()  # scaffolding: pe.VisionTransformer.from_config(..., pretrained=True)
    self.model = model  # scaffolding: .cuda() dropped (CPU)

  def encode_image_obs(self, obs, bdims, normalise=True):
    imgs = [obs[k] for k in sorted(self.imgkeys)]
    assert all(x.dtype == jnp.uint8 for x in imgs)

    # Concatenate images along the last dimension (channel dimension) 
    # and flatten the batch and time dimensions
    x = jnp.concatenate(imgs, -1).astype(jnp.float32) / 255 - 0.5  # scaffolding: nn.cast(..., force=True)
    x = x.reshape((-1, *x.shape[bdims:]))

    with torch.no_grad(), torch.autocast("cuda"):
      # Need to convert to pytorch
      pt_x = torch.from_dlpack(x)  # scaffolding: was torch.from_dlpack(jax.dlpack.to_dlpack(x)); to_dlpack is gone in jax 0.10
      pt_x = self.model(pt_x)
    
    x = jax.dlpack.from_dlpack(pt_x)  # scaffolding: was jax.dlpack.from_dlpack(torch.to_dlpack(pt_x))
    x = jax.nn.gelu(x)  # scaffolding: nn.act(self.act)(self.sub('pe_norm', nn.Norm, self.norm)(x))

    x = x.reshape((x.shape[0], -1))
    return x


enc = PEEncoder()  # scaffolding


@jax.jit
def train_encode(obs):  # scaffolding: stands in for the jitted agent.train -> loss -> self.enc(...)
    return enc.encode_image_obs(obs, 2)


obs = {"image": jnp.zeros((2, 3, 8, 8, 3), jnp.uint8)}  # scaffolding: (batch, time, H, W, C)
n_calls = 0  # scaffolding
try:  # scaffolding
    for _ in range(4):
        tokens = train_encode(obs)
        n_calls += 1
    _report({"jit(train_encode)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
