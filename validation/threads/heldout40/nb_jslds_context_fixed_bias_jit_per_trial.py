# source: https://github.com/jimmysmith1919/JSLDS_public/blob/e4a6fd975800626a5d07cdbb23f8baf494dc4a33/JSLDS_context_integration_notebook.ipynb
# expect: jit-in-loop-or-body at line 627
# runtime: COMPILES 9 CALLS 9
# why: run_trials_fixed_bias (called by the notebook's fixed-bias evaluation cell) wraps a fresh lambda in jax.jit twice per (motion, color) bias pair, with the bias and context baked into the closure, so every builder is traced and compiled for a single call (8 compiles for 4 pairs, 72 for the notebook's 36) where a builder taking the bias as an argument would compile once per context.

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
# JSLDS_context_integration_notebook.ipynb of jimmysmith1919/JSLDS_public at e4a6fd9 (companion Colab of "Reverse engineering recurrent neural networks with Jacobian switching linear dynamical systems", NeurIPS 2021)
# The notebook imports JSLDS_code/model_and_training.py, integrator.py and context_int_analysis.py of the same commit; the parts it uses come first,
# then notebook cells 4, 8, 12, 15, 18, 24 and the first part of cell 48 (evaluation on trials with fixed bias levels).
import types  # scaffolding
# --- JSLDS_code/model_and_training.py (up to run_trials; index_update import removed) ---
import functools
import jax
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers moved
import jax.numpy as jnp
import numpy as np
import math

def keygen(key, nkeys):
  """Generate randomness that JAX can use by splitting the JAX keys.
  Args:
    key : the random.PRNGKey for JAX
    nkeys : how many keys in key generator
  Returns:
    2-tuple (new key for further generators, key generator)
  """
  keys = jax.random.split(key, nkeys+1)
  return keys[0], (k for k in keys[1:])


def get_warmup_fun(warmup_start, warmup_end, val_min, val_max):
  """Warmup function to avoid pathological conditions early in training.

  Args:
    warmup_start: index to start warmup
    warmup_end: index to stop warmup
    val_min: minimal value for warmup at beginning
    val_max: maximal value for wamrup at end

  Returns:
    a function which yields the warmup value
  """

  def warmup(batch_idx):
    progress_frac = ((batch_idx - warmup_start) / (warmup_end - warmup_start))
    warmup = jnp.where(batch_idx < warmup_start,
                       val_min,
                       (val_max - val_min) * progress_frac + val_min)
    return jnp.where(batch_idx > warmup_end, val_max, warmup)
  return warmup



def affine_params(key, **affine_hps):
  """Params for y = W x + b.

  Args:
    key: random.PRNGKey for random bits
    **affine_hps: dict of hps such as 'u' for input size, 'o' for output size,
      'ifactor' for scaling factor

  Returns:
    a dictionary of parameters
  """

  key, skeys = keygen(key, 1)
  u = affine_hps['u']
  o = affine_hps['o']
  i_factor = affine_hps['i_factor']
  i_factor = i_factor / jnp.sqrt(u)
  return {'W': jax.random.normal(next(skeys), (o, u)) * i_factor,
          'b': jnp.zeros((o,))}

def mlp_params(key, nlayers, n):  # pylint: disable=unused-argument
  """Build a very specific multilayer perceptron for picking fixed points.

  Args:
    key: random.PRNGKey for randomness
    nlayers: number of layers in the MLP.
    n: MLP dimension

  Returns:
    List of dictionaries, where list index is the layer (indexed by integer)
      and each dict is the params of the layer, i.e. weights and bias.
  """
  params = [None] * nlayers
  for l in range(nlayers):
    # Below we build against identity, so zeros appropriate here.
    params[l] = {'W': jnp.zeros([n, n]), 'b': jnp.zeros(n)}
  return params

def gru_params(key, **rnn_hps):
  """Generate GRU parameters.

  Args:
    key: random.PRNGKey for random bits
    **rnn_hps: key-value pairs in dict as
       n, hidden state size
       u, input size
       i_factor, scaling factor for input weights
       h_factor, scaling factor for hidden -> hidden weights
       h_scale, scale on h0 initial condition

  Returns:
    a dictionary of parameters
  """
  key, skeys = keygen(key, 5)
  u = rnn_hps['u']
  n = rnn_hps['n']

  ifactor = rnn_hps['i_factor'] / jnp.sqrt(u)
  hfactor = rnn_hps['h_factor'] / jnp.sqrt(n)
  hscale = rnn_hps['h_scale']

  wRUH = jax.random.normal(next(skeys), (n + n, n)) * hfactor
  wRUX = jax.random.normal(next(skeys), (n + n, u)) * ifactor
  wRUHX = jnp.concatenate([wRUH, wRUX], axis=1)

  wCH = jax.random.normal(next(skeys), (n, n)) * hfactor
  wCX = jax.random.normal(next(skeys), (n, u)) * ifactor
  wCHX = jnp.concatenate([wCH, wCX], axis=1)

  return {'h0': jax.random.normal(next(skeys), (n,)) * hscale,
          'wRUHX': wRUHX,
          'wCHX': wCHX,
          'bRU': jnp.zeros((n+n,)),
          'bC': jnp.zeros((n,))}


def vrnn_params(key, **rnn_hps):
  """Generate random Vanilla RNN parameters.

  Args:
    key: random.PRNGKey for randomness
    **rnn_hps: dictionary of hps for VRNN, re size and scaling

  Returns:
    a dict of params appropriate for a 1-layer VRNN
  """

  u = rnn_hps['u']
  n = rnn_hps['n']
  key, skeys = keygen(key, 4)
  hscale = 0.1
  ifactor = 1.0 / jnp.sqrt(u)
  # pfactor = 1.0 / jnp.sqrt(n)

  if rnn_hps['recurrent_is_identity']:
    wR = rnn_hps['h_factor'] * jnp.eye(n)
  else:
    g = rnn_hps['h_factor'] / jnp.sqrt(n)
    wR = jax.random.normal(next(skeys), (n, n)) *  g

  return {'h0': jax.random.normal(next(skeys), (n,)) * hscale,
          'wI': jax.random.normal(next(skeys), (n, u)) * ifactor,
          'wR': wR,
          'bR': jnp.zeros([n])}

def jslds_rnn_params(key, **rnn_hps):
  """Generate parameters for Jacobian Switching Linear Dynamical Systems model.

  Args:
    key: random.PRNGKey for randomness
    **rnn_hps: (nested) dictionary of hyperparameters relevant for JSLDS model.

  Returns:
    A (nested) dictionary of all params relevant for JSLDS RNN.
  """
  key, skeys = keygen(key, 3)
  rnn_params_fun = rnn_hps['rnn']['params_fun']
  return {'mlp': mlp_params(next(skeys), **rnn_hps['mlp']),
          'rnn': rnn_params_fun(next(skeys), **rnn_hps['rnn']),
          'out': affine_params(next(skeys), **rnn_hps['out'])}


def sigmoid(x):
  return 0.5 * (jnp.tanh(x / 2.) + 1)


def affine(params, x):
  """Implement y = W x + b."""
  return jnp.dot(params['W'], x) + params['b']


# Affine expects n_W_m m_x_1, but passing in t_x_m (has txm dims)
# So map over first dimension to handle t_x_m.
# I.e. if affine yields n_y_1 = dot(n_W_m, m_x_1), then
# batch_affine yields t_y_n.
# And so the vectorization pattern goes for all batch_* functions.
batch_affine = jax.vmap(affine, in_axes=(None, 0))


def mlp_tanh(params, x):
  """Multilayer perceptron with tanh nonlinearity.

  Args:
    params: dict of params for MLP
    x: input

  Returns:
    hidden state after applying the MLP
  """
  h = x
  for layer in params:
    h = jnp.tanh(h + jnp.dot(layer['W'], h) + layer['b'])
  return h

def mlp_relu(params, x, b=0.01):
  """Multilayer perceptron with relu nonlinearity.

  Args:
    params: dict of params for MLP
    x: input
    b: static bias for each layer

  Returns:
    hidden state after applying the MLP
  """
  h = x
  for layer in params:
    a = h + jnp.dot(layer['W'], h) + layer['b'] + b
    h = jnp.where(a > 0.0, a, 0.0)
  return h


mlp = mlp_tanh
batch_mlp = jax.vmap(mlp, in_axes=(None, 0))


def vrnn_tanh(params, h, x):
  """Run the Vanilla RNN (tanh) one step.

  Args:
    params: dict of params for VRNN
    h: hidden state of the RNN
    x: input for the RNN

  Returns:
    the hidden state of the RNN after running one step forward in time
  """
  a = jnp.dot(params['wI'], x) + params['bR'] + jnp.dot(params['wR'], h)
  return jnp.tanh(a)


def vrnn_relu(params, h, x):
  """Run the Vanilla RNN (relu) one step.

  Args:
    params: dict of params for VRNN
    h: hidden state of the RNN
    x: input for the RNN

  Returns:
    the hidden state of the RNN after running one step forward in time
  """
  a = jnp.dot(params['wI'], x) + params['bR'] + jnp.dot(params['wR'], h)
  return jnp.where(a > 0.0, a, 0.0)


def gru(params, h, x, bfg=0.0):
  """Implement the GRU equations.

  Arguments:
    params: dictionary of GRU parameters
    h: np array of  hidden state
    x: np array of input
    bfg: bias on forget gate (useful for learning if > 0.0)

  Returns:
    np array of hidden state after GRU update
  """

  hx = jnp.concatenate([h, x], axis=0)
  ru = jnp.dot(params['wRUHX'], hx) + params['bRU']
  r, u = jnp.split(ru, 2, axis=0)
  u = u + bfg
  u = sigmoid(u)
  r = sigmoid(r)
  rhx = jnp.concatenate([r * h, x])
  c = jnp.tanh(jnp.dot(params['wCHX'], rhx) + params['bC'])
  return u * h + (1.0 - u) * c


def taylor(f, order):
  """Compute nth order Taylor series approximation of f.

  Args:
    f: the function to compute the Taylor series expansion on, with signature
        f:: h, x -> h
    order: the order of the expansion (int)

  Returns:
    order-order Taylor series approximation as a function with signature
      T[f]: h, x -> h
  """

  def jvp_first(f, primals, tangent):
    """Jacobian-vector product of first argument element."""
    x, xs = primals[0], primals[1:]
    return jax.jvp(lambda x: f(x, *xs), (x,), (tangent,))

  def improve_approx(g, k):
    """Improve taylor series approximation step-by-step."""
    return lambda x, v: jvp_first(g, (x, v), v)[1] + f(x) / math.factorial(k)

  approx = lambda x, v: f(x) / math.factorial(order)
  for n in range(order):
    approx = improve_approx(approx, order - n - 1)
  return approx

def taylor_approx_rnn(rnn, params, h_star, x_star, h_approx_tm1, x_t, order):
  xdim = x_t.shape[0]
  hx_star = jnp.concatenate([h_star, x_star], axis=0)
  hx = jnp.concatenate([h_approx_tm1, x_t], axis=0)

  Fhx = lambda hx: rnn(params, hx[:-xdim], hx[-xdim:])
  return taylor(Fhx, order)(hx_star, hx - hx_star)


def staylor_rnn(rnn, params, order, h_tm1, h_approx_tm1, x_t, x_star):
  """Run the switching taylor rnn."""
  h_star = mlp(params['mlp'], h_approx_tm1)
  F_star = rnn(params['rnn'], h_star, x_star)

  # Taylor series expansion includes 0 order, so we subtract it off,
  # using the learned MLP point instead. This makes sense because we
  # expanded around (h*,x*), and if the MLP produces a fixed point (thanks
  # to the fixed point regularization pressure), it is equal to F(h*,x*).
  h_staylor_t = taylor_approx_rnn(rnn, params['rnn'], h_star, x_star,
                                  h_approx_tm1, x_t, order)
  h_approx_t = h_staylor_t - F_star + h_star
  o_approx_t = affine(params['out'], h_approx_t)

  h_t = rnn(params['rnn'], h_tm1, x_t)
  o_t = affine(params['out'], h_t)
  return h_star, F_star, h_t, h_approx_t, o_t, o_approx_t

def jslds_rnn_x_star_is_zeros(rnn, params, h_tm1, h_approx_tm1, x_t):
  """define JSLDS with x_star set to all zeros
    (this is the typical usage) """
  x_star = jnp.zeros_like(x_t)
  return staylor_rnn(rnn, params, 1, h_tm1, h_approx_tm1, x_t, x_star)


def jslds_rnn_x_star_context(rnn, params, h_tm1, h_approx_tm1, x_t):
  """define x_star to take static context into account 
  (for context integration) """
  x_star = jnp.zeros_like(x_t)
  x_star = x_star.at[2:4].set(x_t[2:4])  # scaffolding: jax.ops.index_update(x_star, index[2:4], x_t[2:4]) was removed from jax
  return staylor_rnn(rnn, params, 1, h_tm1, h_approx_tm1, x_t, x_star)

def jslds_rnn_scan(rnn, jslds_rnn, params, state, x_t):
  """Run the JSLDS network 1 step adapting the inputs and outputs for scan."""
  h_tm1, h_approx_tm1 = state
  state_and_returns = jslds_rnn(rnn, params, h_tm1, h_approx_tm1, x_t)
  h_star, F_star, h_t, h_approx_t, o_t, o_approx_t = state_and_returns
  state = h_t, h_approx_t
  return state, state_and_returns


def jslds_rnn_run(params, x_t, rnn, jslds_rnn):
  """Run the RNN T steps, where T is shape[0] of input."""
  state0 = (params['rnn']['h0'], params['rnn']['h0'])
  # Convert signature to f: (state, x) -> (state, returns)
  this_jslds_rnn = functools.partial(jslds_rnn_scan, *(rnn, jslds_rnn, params))
  _, state_and_returns = jax.lax.scan(this_jslds_rnn, state0, x_t)
  return state_and_returns


def get_batch_rnn_run_fun(rnn, jslds_rnn):
  return jax.vmap(functools.partial(jslds_rnn_run, rnn=rnn, jslds_rnn=jslds_rnn),
                  in_axes=(None, 0))


def loss(params, inputs_bxtxu, targets_bxtxo, targets_mask_t, 
         out_nl_reg, out_jslds_reg, taylor_reg, fp_reg, l2_reg, rnn, jslds_rnn):
  """Compute the least squares loss of the output, plus L2 regularization."""
  batch_rnn_run = get_batch_rnn_run_fun(rnn, jslds_rnn)
  hstar_bxtxn, F0_bxtxn, h_bxtxn, h_approx_bxtxn, o_bxtxo, o_approx_bxtxo = \
      batch_rnn_run(params, inputs_bxtxu)

  l2_loss = l2_reg * optimizers.l2_norm(params)**2
  fp_loss = fp_reg * jnp.mean((F0_bxtxn - hstar_bxtxn)**2)

  fo_loss = taylor_reg * jnp.mean((h_bxtxn - h_approx_bxtxn)**2)

  o_bxsxo = o_bxtxo[:, targets_mask_t, :]
  o_approx_bxsxo = o_approx_bxtxo[:, targets_mask_t, :]
  targets_bxsxo = targets_bxtxo[:, targets_mask_t, :]

  lms_nl_loss = out_nl_reg * jnp.mean((o_bxsxo - targets_bxsxo)**2)
  lms_jslds_loss = out_jslds_reg * jnp.mean((o_approx_bxsxo - targets_bxsxo)**2)

  total_loss = lms_jslds_loss + lms_nl_loss + l2_loss + fp_loss + fo_loss
  return {'total': total_loss,
          'lms_jslds': lms_jslds_loss, 'lms_nl': lms_nl_loss,
          'l2': l2_loss, 'fixed_point': fp_loss, 'taylor': fo_loss}


loss_jit = jax.jit(loss, static_argnums=(9,10,))



def update_w_gc(i, opt_state, opt_update, get_params, x_bxt, f_bxt, f_mask_bxt,
                max_grad_norm, out_nl_reg, out_jslds_reg, taylor_reg,
                fp_reg, l2_reg, rnn, jslds_rnn):
  """Update the parameters w/ gradient clipped, gradient descent updates."""
  params = get_params(opt_state)

  def training_loss(params):
    return loss(params, x_bxt, f_bxt, f_mask_bxt, out_nl_reg, out_jslds_reg, 
                taylor_reg, fp_reg, l2_reg, rnn, jslds_rnn)['total']

  grads = jax.grad(training_loss)(params)

  clipped_grads = optimizers.clip_grads(grads, max_grad_norm)
  return opt_update(i, clipped_grads, opt_state)

update_w_gc_jit = jax.jit(update_w_gc, static_argnums=(2, 3, 13, 14))


def run_trials(batch_run_fun, inputs_targets_h0s_fun, nbatches, batch_size, key):
  """Run a bunch of trials and save everything in a dictionary."""
  inputs = []
  h_stars = []
  F0_stars = []
  nl_hiddens = []
  nl_outputs = []
  hiddens = []
  outputs = []
  targets = []
  masks = []
  h0s = []
  for _ in range(nbatches):
    key, skey = jax.random.split(key)
    keys = jax.random.split(skey, batch_size)
    input_b, target_b, masks_b, h0s_b = inputs_targets_h0s_fun(keys)
    if h0s_b is None:
      h_star_b, F0_star_b, h_b, h_approx_b, o_b, o_approx_b = \
          batch_run_fun(input_b)
    else:
      h_star_b, F0_star_b, h_b, h_approx_b, o_b, o_approx_b = \
          batch_run_fun(input_b, h0s_b)
      h0s.append(h0s_b)

    inputs.append(input_b)
    h_stars.append(h_star_b)
    F0_stars.append(F0_star_b)
    nl_hiddens.append(h_b)
    nl_outputs.append(o_b)
    hiddens.append(h_approx_b)
    outputs.append(o_approx_b)
    targets.append(target_b)
    masks.append(masks_b)

  trial_dict = {'inputs': np.vstack(inputs),
                'h_stars': np.vstack(h_stars),
                'F0_stars': np.vstack(F0_stars),
                'nl_hiddens': np.vstack(nl_hiddens),
                'nl_outputs': np.vstack(nl_outputs),
                'hiddens': np.vstack(hiddens),
                'outputs': np.vstack(outputs),
                'targets': np.vstack(targets), 
                'masks': np.vstack(masks)}

  if h0s_b is not None:
    trial_dict['h0s'] = np.vstack(h0s)
  else:
    trial_dict['h0s'] = None
  return trial_dict

# --- JSLDS_code/integrator.py (plotting left out) ---
def _integrator_module():  # scaffolding: keeps the module's own namespace (it imports jax.numpy as np)

    """Routines for creating white noise and integrated white noise."""

    from functools import partial
    import jax.numpy as np
    from jax import jit, vmap
    from jax import random
    # import matplotlib.pyplot as plt  # scaffolding: plotting only

    def keygen(key, nkeys):
      """Generate randomness that JAX can use by splitting the JAX keys.
      Args:
        key : the random.PRNGKey for JAX
        nkeys : how many keys in key generator
      Returns:
        2-tuple (new key for further generators, key generator)
      """
      keys = random.split(key, nkeys+1)
      return keys[0], (k for k in keys[1:])



    def build_input_and_target_pure_integration(input_params, key):
      """Build white noise input and integration targets."""
      bias_val, stddev_val, T, ntime = input_params
      dt = T/ntime

      # Create the white noise input.
      key, skey = random.split(key)
      random_sample_1x2 = random.normal(skey, shape=(1, 2))
      bias_1x2 = bias_val * 2.0 * (random_sample_1x2 - 0.5)
      stddev = stddev_val / np.sqrt(dt)
      key, skey = random.split(key)
      random_samples_tx2 = random.normal(skey, shape=(ntime, 2))
      noise_tx2 = stddev * random_samples_tx2
      white_noise_tx2 = bias_1x2 + noise_tx2

      # The context signal a hot one for the duration of the trial.
      con1_tx2 = np.concatenate((np.ones((ntime,1)), np.zeros((ntime,1))), axis=1)
      con2_tx2 = np.concatenate((np.zeros((ntime,1)), np.ones((ntime,1))), axis=1)
      key, skey = random.split(key)
      context = random.bernoulli(skey)
      context_tx2 = np.where(context, con1_tx2, con2_tx2)
  
      # * dt, intentionally left off to get output scaling in O(1).
      targets_t = np.where(context,
                           np.cumsum(white_noise_tx2[:,0]),
                           np.cumsum(white_noise_tx2[:,1]))
      inputs_tx4 = np.concatenate((white_noise_tx2, context_tx2), axis=1)
      targets_tx1 = np.expand_dims(targets_t, axis=1)
      targets_mask = np.expand_dims(np.arange(ntime), axis=1)
      return inputs_tx4, targets_tx1, targets_mask

    # Now batch it and jit.
    build_input_and_target = build_input_and_target_pure_integration


    def build_inputs_and_targets(input_params, keys):
      f = partial(build_input_and_target, input_params)
      f_vmap = vmap(f, (0,))
      return f_vmap(keys)


    def build_input_and_target_pure_integration_fix_bias(input_params, key):
      """Build white noise input and integration targets when bias is fixed"""
      bias_val, context, stddev_val, T, ntime = input_params
      dt = T/ntime

      # Create the white noise input.  
      key, skeys = keygen(key, 3)
      bias_1x2 = bias_val
      stddev = stddev_val / np.sqrt(dt)
      random_samples_tx2 = random.normal(next(skeys), shape=(ntime, 2))
      noise_tx2 = stddev * random_samples_tx2
      white_noise_tx2 = bias_1x2 + noise_tx2

      # The context signal a hot one for the duration of the trial.
      con1_tx2 = np.concatenate((np.ones((ntime,1)), np.zeros((ntime,1))), axis=1)
      con2_tx2 = np.concatenate((np.zeros((ntime,1)), np.ones((ntime,1))), axis=1)
      context_tx2 = np.where(context, con1_tx2, con2_tx2)
  
      # * dt, intentionally left off to get output scaling in O(1).
      targets_t = np.where(context,
                           np.cumsum(white_noise_tx2[:,0]),
                           np.cumsum(white_noise_tx2[:,1]))
      inputs_tx4 = np.concatenate((white_noise_tx2, context_tx2), axis=1)
      targets_tx1 = np.expand_dims(targets_t, axis=1)
      targets_mask = np.expand_dims(np.arange(ntime), axis=1)
      return inputs_tx4, targets_tx1, targets_mask

    # Now batch it and jit.
    build_input_and_target_fix_bias = build_input_and_target_pure_integration_fix_bias


    def build_inputs_and_targets_fix_bias(input_params, keys):
      f = partial(build_input_and_target_fix_bias, input_params)
      f_vmap = vmap(f, (0,))
      return f_vmap(keys)

    build_inputs_and_targets_fix_bias_jit = jit(build_inputs_and_targets_fix_bias, static_argnums=(0,))
    return types.SimpleNamespace(**locals())  # scaffolding
_integrator = _integrator_module()  # scaffolding

# --- JSLDS_code/context_int_analysis.py: run_trials_fixed_bias ---
def run_trials_fixed_bias(key,eval_batch_size, motions,
                          colors, batch_rnn_run, params, ntimesteps, n, u):
  """Run JSLDS-RNN system on context-dependent integration trials, fixing the 
     bias levels """
  m_hiddens = np.zeros((36,eval_batch_size,ntimesteps, n))
  m_hstars = np.zeros((36,eval_batch_size,ntimesteps, n))
  m_inputs = np.zeros((36, eval_batch_size,ntimesteps, u))

  c_hiddens = np.zeros((36, eval_batch_size,ntimesteps, n))
  c_hstars = np.zeros((36,eval_batch_size,ntimesteps, n))
  c_inputs = np.zeros((36, eval_batch_size,ntimesteps, u))

  i = 0
  for m in motions:
    for c in colors:
      T = 1.0          # Arbitrary amount time, roughly physiological.
      ntimesteps = 25  # Divide T into this many bins
      motion= m
      color = c
      bval = np.array([motion, color])[None,...]
      sval = 0.025     # standard deviation (before dividing by sqrt(dt))

      #motion context
      context = True
      input_params = (bval, context, sval, T, ntimesteps)

      build_partial = lambda skeys: integrator.build_inputs_and_targets_fix_bias(input_params, skeys)
      build_inputs_and_targets = jax.jit(build_partial)

      def inputs_targets_no_h0s(keys):
          inputs_b, targets_b, masks_b = \
              build_inputs_and_targets(keys)
          h0s_b = None # Use trained h0
          return inputs_b, targets_b, masks_b, h0s_b

      rnn_run = lambda inputs: batch_rnn_run(params, inputs)
      key, skey = jax.random.split(key)
      rnn_internals = JSLDS.run_trials(rnn_run, inputs_targets_no_h0s, 1, 
                                       eval_batch_size, skey)

      m_hiddens[i] = rnn_internals['hiddens']
      m_hstars[i] = rnn_internals['h_stars']
      m_inputs[i] = rnn_internals['inputs']

      #color context
      context = False
      input_params = (bval, context, sval, T, ntimesteps)
      build_partial = lambda skeys: integrator.build_inputs_and_targets_fix_bias(input_params, skeys)
      build_inputs_and_targets = jax.jit(build_partial)

      def inputs_targets_no_h0s(keys):
          inputs_b, targets_b, masks_b = \
              build_inputs_and_targets(keys)
          h0s_b = None # Use trained h0
          return inputs_b, targets_b, masks_b, h0s_b

      rnn_run = lambda inputs: batch_rnn_run(params, inputs)
      key, skey = jax.random.split(key)
      rnn_internals = JSLDS.run_trials(rnn_run, inputs_targets_no_h0s, 1,
                                       eval_batch_size,skey)

      c_hiddens[i] = rnn_internals['hiddens']
      c_hstars[i] = rnn_internals['h_stars']
      c_inputs[i] = rnn_internals['inputs']
      
      i +=1
  return m_hiddens,m_hstars,m_inputs,c_hiddens,c_hstars,c_inputs

JSLDS = types.SimpleNamespace(vrnn_tanh=vrnn_tanh, vrnn_params=vrnn_params, jslds_rnn_params=jslds_rnn_params, jslds_rnn_x_star_context=jslds_rnn_x_star_context, get_batch_rnn_run_fun=get_batch_rnn_run_fun, run_trials=run_trials)  # scaffolding: the imported module
integrator = _integrator  # scaffolding: the imported module
analysis = types.SimpleNamespace(run_trials_fixed_bias=run_trials_fixed_bias)  # scaffolding: the imported module
# cell 4
# Numpy, JAX, and Matplotlib should all be correctly installed and on the 
# python path.
import time
import jax
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers moved
import jax.numpy as jnp
import math
import numpy as np             # original CPU-backed NumPy
# cell 8 (scaffolding: the module imports are the namespaces above)
# cell 12
reload_trained_model = True
# cell 15
#Contextual integration parameters
T = 1.0          # Arbitrary amount time, roughly physiological.
ntimesteps = 25  # Divide T into this many bins
bval = 0.01      # bias value limit
sval = 0.025     # standard deviation (before dividing by sqrt(dt))
input_params = (bval, sval, T, ntimesteps)
u = 4            # number of inputs
o = 1            # number of outputs in the RNN

build_partial = lambda skeys: integrator.build_inputs_and_targets(input_params,
                                                                  skeys)
build_inputs_and_targets = jax.jit(build_partial)

#set u_star (input to expand around in taylor approximation) to zeros (average of the inputs)
jslds_rnn = JSLDS.jslds_rnn_x_star_context
# cell 18
if reload_trained_model:
    network_path = 'JSLDS_public/JSLDS_code/trained_params_jslds_context_integration_0.000819_2021-03-29_18_01_27.npz'
    # scaffolding: the trained parameters (.npz) are replaced by a fresh init below

    batch_size = 256          # How many examples in each batch
    #If using trained model, do not change the following parameters
    n = 16  # scaffolding: 16 instead of 128 units
    rnn_fun = JSLDS.vrnn_tanh
    rnn_hps = {'fun' : rnn_fun}  
    hps = { 'rnn' : rnn_hps}
params = JSLDS.jslds_rnn_params(jax.random.PRNGKey(0), mlp={'nlayers': 2, 'n': n}, rnn={'u': u, 'n': n, 'recurrent_is_identity': False, 'h_factor': 0.9, 'h_scale': 0.1, 'i_factor': 1.0, 'params_fun': JSLDS.vrnn_params}, out={'u': n, 'o': o, 'i_factor': 1.0})  # scaffolding
# cell 24
# Plot input/target example and define batch RNN function

seed = 1945
print("Seed: %d" % seed)
key = jax.random.PRNGKey(seed) # create a random key for jax for use on device.

# Plot input/target examples
ntoplot = 20    # how many example one could view 

key, skey = jax.random.split(key, 2)
skeys = jax.random.split(skey, ntoplot) # get ntoplot random keys
inputs, targets, masks = build_inputs_and_targets(skeys)
# scaffolding: input_plot_batch (plotting) dropped


def inputs_targets_no_h0s(keys):
    inputs_b, targets_b, masks_b = \
        build_inputs_and_targets(keys)
    h0s_b = None # Use trained h0
    return inputs_b, targets_b, masks_b, h0s_b


batch_rnn_run = JSLDS.get_batch_rnn_run_fun(hps['rnn']['fun'], jslds_rnn)
# cell 48
#Evaluate on batch of trials with fixed bias levels
eval_batch_size = 16  # scaffolding: 16 instead of 128
motions = [-.04, .02]  # scaffolding: 2 of the 6 motion biases
colors = [-.009, .04]  # scaffolding: 2 of the 6 color biases
key, skey = jax.random.split(key)
m_hiddens,m_hstars,m_inputs,c_hiddens,c_hstars,\
c_inputs = analysis.run_trials_fixed_bias(skey, eval_batch_size, motions,
                                          colors, batch_rnn_run, params,
                                          ntimesteps, n, u)

_report({"jit(<lambda>)"}, 1 + 2 * len(motions) * len(colors))  # scaffolding: one call per jitted builder
