# source: https://github.com/google-research/self-organising-systems/blob/3d5547ca48b60ecac459834e2c05c9ff5df87991/notebooks/evoJax_Growing_NCA.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The GPU/CPU training loop calls the jitted v_fitness_fn, which vmaps the separately jitted fitness_f (a 90-step lax.scan of the flax CA); the inner jit is inlined into the outer trace, and the population/key shapes are fixed, so there is one compile for the whole loop.

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
#jax
import jax
import jax.numpy as jp
from jax import grad, jit, vmap, pmap
import jax.random as jr
from jax.flatten_util import ravel_pytree
import flax.linen as fnn
from jax.sharding import PartitionSpec as P
import numpy as np
import time

#@title Cellular Automata Parameters
CHANNEL_N = 16        # Number of CA state channels
TARGET_PADDING = 4   # Number of pixels used to pad the target image border
TARGET_SIZE = 16  # scaffolding: 40 in the notebook, cut for CPU
BATCH_SIZE = 1
CELL_FIRE_RATE = 0.5


def load_emoji(emoji):  # scaffolding: stand-in for the download of the noto emoji
  img = np.zeros([TARGET_SIZE, TARGET_SIZE, 4], np.float32)
  img[4:-4, 4:-4, :] = 0.8
  return img


def to_rgba(x):
  return x[..., :4]

def to_alpha(x):
  return x[..., 3:4].clip(0.0, 1.0)

def to_rgb(x):
  # assume rgb premultiplied by alpha
  rgb, a = x[..., :3], to_alpha(x)
  return 1.0-a+rgb

def get_living_mask(x):
  # probably not needed anymore.
  alpha = x[:, :, :, 3:4]
  return fnn.max_pool(alpha, window_shape=(3,3), strides=(1, 1),
                      padding='SAME') > 0.1

def depthwise_conv2d(x, kernel, strides, padding):
  c = x.shape[-1]
  b, h, w = x.shape[:3]  # scaffolding: einops.rearrange replaced by transpose/reshape
  x = x.transpose(0, 3, 1, 2).reshape(b * c, 1, h, w)  # scaffolding
  y = jax.lax.conv(x, kernel, strides, padding)
  f = y.shape[1]  # scaffolding
  y = y.reshape(b, c, f, h, w).transpose(0, 3, 4, 2, 1).reshape(b, h, w, f * c)  # scaffolding
  return y

def perceive(x, angle=0.0):
  identify = np.float32([0, 1, 0])
  identify = np.outer(identify, identify)
  dx = np.outer([1, 2, 1], [-1, 0, 1]) / 8.0  # Sobel filter
  dy = dx.T
  c, s = jp.cos(angle), jp.sin(angle)
  kernel = jp.stack([identify, c*dx-s*dy, s*dx+c*dy], 0)[:,None, :, :]
  y = depthwise_conv2d(x, kernel, (1, 1), 'SAME')
  return y


class CellsUpdate(fnn.Module):
  channel_n: int = CHANNEL_N
  fire_rate: float = CELL_FIRE_RATE

  def setup(self):
    """Initializes all parameters.

    """
    self.dmodel = fnn.Sequential([
        fnn.Conv(features=128, kernel_size=(1,1)),
        fnn.relu,
        fnn.Conv(features=self.channel_n, kernel_size=(1,1),
                 kernel_init=jax.nn.initializers.zeros)
    ])

  def __call__(self, x, key, fire_rate=None, angle=0.0, step_size=1.0):
    pre_life_mask = get_living_mask(x)

    y = perceive(x, angle)
    dx = self.dmodel(y)*step_size
    if fire_rate is None:
      fire_rate = self.fire_rate
    update_mask_f32 = (jr.uniform(key, x[:, :, :, :1].shape) <= fire_rate).astype(jp.float32)
    x += dx * update_mask_f32

    post_life_mask = get_living_mask(x)
    life_mask_f32 = (pre_life_mask & post_life_mask).astype(jp.float32)
    return x * life_mask_f32

TARGET_EMOJI = "🦎"
target_img = load_emoji(TARGET_EMOJI)

#@title Initialize Training { vertical-output: true}

p = TARGET_PADDING
pad_target = jp.pad(target_img, [(p, p), (p, p), (0, 0)])
h, w = pad_target.shape[:2]
seed = np.zeros([h, w, CHANNEL_N], np.float32)
seed[h//2, w//2, 3:] = 1.0
x0 = np.repeat(seed[None, ...], BATCH_SIZE, 0)

def target_loss_f(x):
  return (jp.square(to_rgba(x)-pad_target)).mean([-2, -3, -1])


#Initialization of the cell model
ca_update = CellsUpdate()
key = jr.PRNGKey(1)
k1, k2, key = jr.split(key, 3)


params = ca_update.init(k1, seed[None,:], k2)

#flatten all the parameters
params_flat, unravel_pytree = ravel_pytree(params)


@jit
def fitness_f(params_flat, x, key):

  iter_n = 90
  compute_loss_every=30
  params = unravel_pytree(params_flat)

  loss = 0.0

  def scan_f(carry, i):
    loss, x, key = carry
    key, keyused = jr.split(key)
    x = ca_update.apply(params, x, key)

    loss = jax.lax.cond(((i+1)%compute_loss_every==0), (lambda loss, x: loss + target_loss_f(x).mean()), (lambda loss, x: loss), loss, x)

    return (loss, x, key), 0

    #loss function computed with all the timesteps from 0 to iter_n

  (loss, x, key), _ = jax.lax.scan(
      scan_f, (loss, x, key), jp.arange(0, iter_n, dtype=jp.int32))

  return -loss, x

k1, key = jr.split(key, 2)

#parallelized using pmap

#only used if Training Device is TPU
def p_fitness_fn(ca_params, x0, key):
  #each device then execute the vectorized version of the fitness function (vmap)
  fitness, x = pmap(v_fitness_fn)(ca_params, x0, key)
  return fitness, x


@jit
def v_fitness_fn(ca_params, x0, key):
  fitness, x = vmap(fitness_f)(ca_params, x0, key)
  return fitness, x

#@title Hyperparameters of the optimizer

# For popsize=128
lr=0.08

param_size=len(params_flat)
popsize= 8  # scaffolding: 128 in the notebook

training_iterations = 4  # scaffolding: 50000 in the notebook
print_every=100


class PGPE:  # scaffolding: stand-in for evojax.algo.PGPE (ask/tell only)
  def __init__(self, pop_size, param_size, seed=1, init_stdev=0.1, **kw):
    self._rng = np.random.RandomState(seed)
    self.pop_size, self.center, self.stdev = pop_size, np.zeros(param_size, np.float32), init_stdev

  def ask(self):
    self._eps = self._rng.randn(self.pop_size, self.center.size).astype(np.float32)
    return jp.asarray(self.center + self.stdev * self._eps)

  def tell(self, fitness):
    f = np.asarray(fitness)
    self.center = self.center + 0.01 * ((f - f.mean())[:, None] * self._eps).mean(0)

if 'tpu' in [device.platform for device in jax.devices()]:
  #select TPU for training
  TPU = 8

  # Initialize the TPU mesh for memory sharding.
  # This distributes the population across XLA devices to improve performance.
  mesh = jax.make_mesh((TPU,), ('x'))
  sharding = jax.sharding.NamedSharding(mesh, P('x'))


  @jax.jit
  def repeat_for_tpu(tensor):
      """
      Repeat tensor from (batch, x, y, channel) to (tpu, pop_size/tpu, x, y, channel)
      """
      expanded = jax.numpy.expand_dims(tensor, axis=0)  # (1, batch, x, y, channel)
      tiled = jax.numpy.repeat(expanded, popsize, axis=0)  # (tpu, batch, x, y, channel)
      reshaped = tiled.reshape(TPU, popsize//TPU, tensor.shape[0], tensor.shape[1], tensor.shape[2], tensor.shape[3])
      return reshaped


@jax.jit
def repeat_for_gpu(tensor):
    """
    Repeat tensor from (batch, x, y, channel) to (tpu, pop_size/tpu, x, y, channel)
    """
    expanded = jax.numpy.expand_dims(tensor, axis=0)  # (1, batch, x, y, channel)
    tiled = jax.numpy.repeat(expanded, popsize, axis=0)  # (popsize, batch, x, y, channel)

    return tiled


#Initializer of the solver
solver = PGPE(
    pop_size=popsize,
    param_size=param_size,
    seed=1,
    init_stdev=0.1*lr,
)

#@title Training Loop

#init variables
time_ = 0.0
time_step = 0.0
i = 0

start_time = time.time()
best_fitness = []

x0 = np.repeat(seed[None, ...], BATCH_SIZE, 0)

if 'tpu' in [device.platform for device in jax.devices()]:
  x0_tiled = repeat_for_tpu(x0)
else:
  x0_tiled = repeat_for_gpu(x0)


while i<training_iterations+1:

  k1, key = jr.split(key)

  #get the parameters from the solver (new populatiopn)
  v_params = solver.ask()

  #reshape the parameters for allowing parallel execution on different devices using pmap
  key, skey = jr.split(key)
  skey_tiled = jr.split(skey, popsize)

  #TPU
  if 'tpu' in [device.platform for device in jax.devices()]:
    #reshape the parameters for allowing parallel execution on different devices using pmap
    pop_per_tpu = popsize // TPU
    v_params = jax.numpy.reshape(v_params, (TPU, pop_per_tpu,-1))
    v_params = jax.device_put(v_params, sharding)
    skey_tiled = jax.numpy.reshape(skey_tiled, (TPU, pop_per_tpu,-1))
    v_params = jax.numpy.reshape(v_params, (TPU, pop_per_tpu, -1))

    #compute the fitness of the parameters
    fitness, x = p_fitness_fn(v_params, x0_tiled, skey_tiled)
    fitness = fitness.reshape(-1)  # scaffolding: einops.rearrange(fitness, 't p -> (t p)')


  #GPU/CPU
  else:
    fitness, x = v_fitness_fn(v_params, x0_tiled, skey_tiled)

  best_fitness.append(float(fitness.max().item()))

  #update the solver
  solver.tell(fitness)

  time_ = time.time() - start_time
  time_step = time_/(i+1)

  print('\r popsize: %d, step: %d, fitness: %.4f , loss: %.4f , total_time: %.2f , time_step: %.3f'%(popsize, i, best_fitness[-1], -best_fitness[-1],  time_, time_step), end='')

  i+=1

print()  # scaffolding
_report({"jit(v_fitness_fn)", "jit(fitness_f)"}, i)  # scaffolding
