# source: https://github.com/google-deepmind/deepmind-research/blob/f5de0ede8430809180254ee957abf36ed62579ef/ode_gan/odegan_mog16.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The training loop passes the Python loop counter `e` (a new int every step) and freshly sampled NumPy float64 batches to the jitted ode_update, and the body looks up the integrator in a dict by a global string; ints are traced as weak int32 and the float64 batches are always canonicalised to float32 of the same shape, so it compiles once.

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
#@title Imports
import jax
from jax import lax
import jax.numpy as jnp
import numpy as np
import haiku as hk
import functools
_CALLS = [0]  # scaffolding
#@title An MLP Haiku Module 

class MLP(hk.Module):
  def __init__(self, depth, hidden_size, out_dim, name='SimpleNet'):
    super(MLP, self).__init__(name=name)
    self._depth = depth
    self._hidden_size = hidden_size
    self._out_dim = out_dim
    layers = []
    for i in range(self._depth):
      layers.append(hk.Linear(self._hidden_size, name='linear_%d'%(i)))
    self._layers = layers
    self._final_layer = hk.Linear(self._out_dim, name='final_layer')

  def __call__(self, input):
    h = input
    for i in range(self._depth):
      h = jax.nn.relu(self._layers[i](h))
    return self._final_layer(h)
#@title Real Data
def real_data(batch_size):
  mog_mean = np.array([
        [ 1.50,  1.50],
        [ 1.50,  0.50],
        [ 1.50, -0.50],
        [ 1.50, -1.50],
        [ 0.50,  1.50],
        [ 0.50,  0.50],
        [ 0.50, -0.50],
        [ 0.50, -1.50],
        [-1.50,  1.50],
        [-1.50,  0.50],
        [-1.50, -0.50],
        [-1.50, -1.50],
        [-0.50,  1.50],
        [-0.50,  0.50],
        [-0.50, -0.50],
        [-0.50, -1.50],
    ])
  temp = np.tile(mog_mean, (batch_size // 16 + 1,1))
  mus = temp[0:batch_size,:]
  return mus + 0.02 * np.random.normal(size=(batch_size, 2))
                                 
#@title ODE-integrators
def euler_step(func, y0, f0, t0, dt):
  # Euler update
  y1 = jax.tree_util.tree_map(lambda u, v: dt * v + u, y0, f0)  # scaffolding: jax.tree_multimap (removed)
  return y1

def euler_heun_step(func, y0, f0, t0, dt):
  # RK2 Butcher tableaux
  alpha = jnp.array([1. / 2., 0.])
  beta = jnp.array([
      [1 / 2, 0,],
  ])
  c_sol = jnp.array([1 / 2, 1 / 2])

  def body_fun(i, k):
    ti = t0 + dt * alpha[i-1]
    yi = jax.tree_util.tree_map(lambda u, v: u + dt * jnp.tensordot(beta[i-1, :], v, axes=1), y0, k)  # scaffolding: jax.tree_multimap (removed)
    ft = func(yi, ti)
    return jax.tree_util.tree_map(lambda x, y: x.at[i, :].set(y), k, ft)  # scaffolding: jax.tree_multimap (removed)
  k = jax.tree_util.tree_map(lambda f: jnp.zeros((2,) + f.shape,  # scaffolding: jax.tree_map (removed)
                                       f.dtype).at[0, :].set(f), f0)
  k = lax.fori_loop(1, 2, body_fun, k)

  y1 = jax.tree_util.tree_map(lambda u, v: dt * jnp.tensordot(c_sol, v, axes=1) + u, y0, k)  # scaffolding: jax.tree_multimap (removed)
  return y1

def runge_kutta_step(func, y0, f0, t0, dt):
  # RK4 Butcher tableaux
  alpha = jnp.array([1. / 2., 1. / 2.,  1., 0])
  beta = jnp.array([
      [1. / 2., 0, 0, 0],
      [0, 1. / 2., 0, 0],
      [0, 0, 1., 0],
  ])
  c_sol = jnp.array([1. / 6., 1. / 3., 1. / 3., 1. / 6.])

  def body_fun(i, k):
    ti = t0 + dt * alpha[i-1]
    yi = jax.tree_util.tree_map(lambda u, v: u + dt * jnp.tensordot(beta[i-1, :], v, axes=1), y0, k)  # scaffolding: jax.tree_multimap (removed)
    ft = func(yi, ti)
    return jax.tree_util.tree_map(lambda x, y: x.at[i, :].set(y), k, ft)  # scaffolding: jax.tree_multimap (removed)
  k = jax.tree_util.tree_map(lambda f: jnp.zeros((4,) + f.shape,  # scaffolding: jax.tree_map (removed)
                                       f.dtype).at[0, :].set(f), f0)
  k = lax.fori_loop(1, 4, body_fun, k)

  y1 = jax.tree_util.tree_map(lambda u, v: dt * jnp.tensordot(c_sol, v, axes=1) + u, y0, k)  # scaffolding: jax.tree_multimap (removed)
  return y1
#@title Utility Functions.
def disc_loss(disc_params, gen_params, real_examples, latents):
  fake_examples = gen_model.apply(gen_params, None, latents)
  real_logits  = disc_model.apply(disc_params, None, real_examples)
  fake_logits = disc_model.apply(disc_params, None, fake_examples)
  disc_real = real_logits - jax.nn.log_sigmoid(real_logits)
  disc_fake = - jax.nn.log_sigmoid(fake_logits)
  return - jnp.mean(disc_real + disc_fake)

def gen_loss(disc_params, gen_params, real_examples, latents):
  fake_examples = gen_model.apply(gen_params, None, latents)
  fake_logits = disc_model.apply(disc_params, None, fake_examples)
  disc_fake = fake_logits - jax.nn.log_sigmoid(fake_logits)
  return - jnp.mean(disc_fake)

def gen_norm(disc_params, gen_params, real_examples, latents):
    grad = jax.grad(gen_loss, argnums=1)(
      disc_params, gen_params, real_examples, latents)
    flat, _ = jax.tree_util.tree_flatten(grad)  # scaffolding: jax.tree_flatten (removed)
    norm = 0.
    for a in flat:
      norm += jnp.sum(a * a)
    return - norm

def get_gen_grad(gen_params, t, disc_params, real_examples, latents):
  return jax.grad(gen_loss, argnums=1)(
      disc_params, gen_params, real_examples, latents)

def get_disc_grad(disc_params, t, gen_params, real_examples, latents):
  return jax.grad(disc_loss, argnums=0)(
      disc_params, gen_params, real_examples, latents)

#@title Integration
n_itrs = 6  # scaffolding: 30001 #@param {type : 'integer'}
n_save = 3  # scaffolding: 2000 #@param {type : 'integer'}
latent_size = 32 #@param {type : 'integer'}
bs = 512 #@param {type : 'integer'}
odeint = 'runge_kutta_step' #@param ['euler_step', 'euler_heun_step', 'runge_kutta_step'] {type : 'string'}
delta_t = 0.10 #@param {type : 'number'}
reg_param = 0.07 #@param {type : 'number'}

def forward_disc(batch):
  disc_model = MLP(2, 25, 1)
  return disc_model(batch)

def forward_gen(batch):
  gen_model = MLP(2, 25, 2)
  return gen_model(batch)


disc_model = hk.transform(forward_disc)
gen_model = hk.transform(forward_gen)
real_examples = real_data(bs)

ODEINT = {'runge_kutta_step': runge_kutta_step, 
          'euler_heun_step': euler_heun_step,
          'euler_step': euler_step}
@jax.jit
def ode_update(i, disc_params, gen_params, real_examples, latents):
  dloss, disc_grad = jax.value_and_grad(disc_loss, argnums=0)(
      disc_params, gen_params, real_examples, latents)
  gloss, gen_grad = jax.value_and_grad(gen_loss, argnums=1)(
      disc_params, gen_params, real_examples, latents)
  disc_gen_grad = jax.grad(gen_norm, argnums=0)(
      disc_params, gen_params, real_examples, latents)
  grad_disc_fn = functools.partial(get_disc_grad,
                                   **{'gen_params' : gen_params,
                                      'real_examples' : real_examples,
                                      'latents' : latents})
  grad_gen_fn = functools.partial(get_gen_grad, 
                                  **{'disc_params' : disc_params,
                                     'real_examples' : real_examples,
                                     'latents' : latents})  
  new_gen_params = ODEINT[odeint](
      grad_gen_fn, gen_params, gen_grad, 0., delta_t)
  new_disc_params = ODEINT[odeint](
      grad_disc_fn, disc_params, disc_grad, 0., delta_t)
  new_disc_params = jax.tree_util.tree_map(  # scaffolding: jax.tree_multimap (removed)
      lambda x, y: x + delta_t * reg_param * y, new_disc_params, disc_gen_grad)
  return new_disc_params, new_gen_params, -dloss, -gloss

rng = jax.random.PRNGKey(np.random.randint(low=0, high=int(1e7)))
test_latents = np.random.normal(size=(bs * 10, latent_size))
latents = np.random.normal(size=(bs, latent_size))
disc_params = disc_model.init(rng, real_examples)
gen_params = gen_model.init(
    jax.random.PRNGKey(np.random.randint(low=0, high=int(1e7))), latents)

x = np.arange(-2., 2., 0.1)
y = np.arange(-2., 2., 0.1)
X, Y = np.meshgrid(x, y)
pairs = np.stack((X, Y), axis=-1)
pairs = np.reshape(pairs, (-1, 2))

for e in range(n_itrs):
  real_examples = real_data(bs)
  latents = np.random.normal(size=(bs, latent_size))

  (disc_params, gen_params,
   dloss, gloss) = ode_update(e, disc_params, gen_params, real_examples, latents)
  _CALLS[0] += 1  # scaffolding
   
  if e % n_save == 0:
    real_logits = disc_model.apply(disc_params, None, pairs)
    disc_contour = - real_logits + jax.nn.log_sigmoid(real_logits)
    print('i = %d, discriminant loss = %s, generator loss = %s' %
          (e, dloss, gloss))
    bbox = [-2, 2, -2, 2]
    fake_examples = gen_model.apply(gen_params, None, test_latents)
    # kde(...) plot cut: scaffolding
    disc_error = 0
    gen_error = 0

_report({"jit(ode_update)"}, _CALLS[0])  # scaffolding
