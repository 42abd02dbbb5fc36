# source: https://github.com/EiffL/Quarks2CosmosDataChallenge/pull/6
# expect: trace-time-error at line 69
# runtime: ERROR TracerIntegerConversionError
# why: The haiku Decoder loops over jnp.arange(5)[::-1] and indexes Python tuples (channels_per_group[i], strides[i]) with the loop value; under jit jnp.arange is traced, so the tuple index raises TracerIntegerConversionError.

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
import haiku as hk
import jax
import jax.numpy as jnp


def BlockGroup(channels, num_blocks, stride, bn_config, bottleneck, use_projection, transpose, name):
    # scaffolding: stands in for quarks2cosmos.models.convdae.BlockGroup (one transposed conv)
    conv = hk.Conv2DTranspose(output_channels=channels, kernel_shape=3, stride=stride, name=name)
    return lambda net, is_training, test_local_stats: jax.nn.relu(conv(net))


class Decoder(hk.Module):
  def __init__(self,
               blocks_per_group=(2, 2, 2, 2, 2),
               bn_config=False,
               bottleneck=False,
               channels_per_group=(32, 64, 128, 128, 32),
               use_projection=(True, True, True, True, True),
               name=None):
    super().__init__(name=name)

    bn_config = dict(bn_config or {})
    bn_config.setdefault("decay_rate", 0.9)
    bn_config.setdefault("eps", 1e-5)
    bn_config.setdefault("create_scale", True)
    bn_config.setdefault("create_offset", True)
    self.bn_config = bn_config
    self.channels_per_group = channels_per_group
    self.blocks_per_group = blocks_per_group
    self.use_projection = use_projection
    self.bottleneck = bottleneck

  def __call__(self, inputs, is_training=False, test_local_stats=False):

    # Expand and reshape inputs
    net = hk.Linear(3*3*32)(inputs)
    net = net.reshape([-1,3,3,32])

    strides = (1, 2, 2, 2, 2)
    for i in jnp.arange(5)[::-1]:
      net = BlockGroup(channels=self.channels_per_group[i],
                     num_blocks=self.blocks_per_group[i],
                     stride=strides[i],
                     bn_config=self.bn_config,
                     bottleneck=self.bottleneck,
                     use_projection=self.use_projection[i],
                     transpose=True,
                     name="up_block_group_%d" % (i))(net, is_training, test_local_stats)

    net = hk.Conv2DTranspose(output_channels=1,
                                kernel_shape=5,
                                stride=2,
                                padding="SAME",
                                name="final_conv")(net)

    # Adding padding to recover 101x101 shape
    net = net[...,0]
    net = jnp.pad(net,[[0,0],[3,2],[3,2]])
    return net  # scaffolding: the repository wraps this in a tfp MultivariateNormalDiag


# scaffolding: a jitted init/apply of the decoder on a small latent batch
decoder = hk.transform(lambda z: Decoder(channels_per_group=(4, 4, 4, 4, 4))(z))
z = jnp.zeros((2, 8))
try:
    params = jax.jit(decoder.init)(jax.random.PRNGKey(0), z)
    out = jax.jit(decoder.apply)(params, None, z)
    _report({"jit(apply_fn)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
