# source: https://github.com/jimmysmith1919/JSLDS_public/blob/e4a6fd975800626a5d07cdbb23f8baf494dc4a33/JSLDS_3bit_memory_notebook.ipynb
# expect: none
# runtime: COMPILES 4 CALLS 32
# why: update_w_gc_jit and loss_jit take the optimizer's update/get_params functions and the RNN step functions as static arguments and the regularisation weights and batch index as traced Python scalars, but those functions are created once and the floats are weakly typed, so training and the evaluation loop (with different 1.0/0.0 weights) compile each once; the input builder compiles once per batch size (20 for plotting, then the training size).

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
# JSLDS_3bit_memory_notebook.ipynb of jimmysmith1919/JSLDS_public at e4a6fd9 (companion Colab of "Reverse engineering recurrent neural networks with Jacobian switching linear dynamical systems", NeurIPS 2021)
# The notebook imports JSLDS_code/model_and_training.py and JSLDS_code/nbit_memory_task.py from the same commit; their parts it uses come first,
# then notebook cells 5, 15, 18, 23, 25, 27, 29, 31, 33, 37 in order (the training path, reload_trained_model = False).
import types  # scaffolding
# --- JSLDS_code/model_and_training.py (index_update import, the unused jslds_rnn_x_star_context and run_trials_given_inputs left out) ---
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


# --- JSLDS_code/nbit_memory_task.py (plotting left out) ---
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: plotting only, matplotlib not installed



"""Routines for creating 3-bit memory task."""

def build_one_bit_memory(input_params, key):
  """Build white noise input and integration targets."""
  ntimesteps = input_params[0]

  # Generate random pulse inputs.
  key, skey = jax.random.split(key, 2)
  pre_inputs_t = jax.random.randint(skey, (ntimesteps,), 0, 3) - 1.0

  # For each input stream, set the target output to be the most recent
  # nonzero input.
  inputs_1 = jnp.expand_dims(jnp.where(pre_inputs_t < -0.5, 1.0, 0.0), axis=1)
  inputs_2 = jnp.expand_dims(jnp.where(pre_inputs_t > 0.5, 1.0, 0.0), axis=1)
  inputs_tx2 = jnp.concatenate((inputs_1, inputs_2), axis=1)
  targ = -1.0  # always start in off position
  targets_t = []
  for t in range(ntimesteps):
    targ = jnp.where(pre_inputs_t[t] < -0.5, -1.0, targ)
    targ = jnp.where(pre_inputs_t[t] > 0.5, 1.0, targ)
    targets_t.append(targ)
 
  ntosettle = 5
  target_mask = jnp.arange(ntosettle, ntimesteps)
  return inputs_tx2, jnp.array(targets_t), target_mask

def build_nbit_memory(input_params, key):
  """Top level function for building inputs."""
  ntimesteps, ninputs, _ = input_params
  inputs = []
  targets = []
  masks = []
  skeys = jax.random.split(key, ninputs)
  for skey in skeys:
    inputs_tx2, targets_t, mask = build_one_bit_memory(input_params, skey)
    inputs.append(inputs_tx2.T)
    targets.append(targets_t)
    masks.append(mask)
  inputs = jnp.transpose(jnp.array(inputs), [2, 0, 1])
  return jnp.reshape(inputs, [ntimesteps, -1]), jnp.array(targets).T, jnp.array(masks).T


nbit_memory_build_inputs_and_targets = \
    jax.vmap(build_nbit_memory, in_axes=(None, 0))

JSLDS = types.SimpleNamespace(gru=gru, gru_params=gru_params, jslds_rnn_params=jslds_rnn_params, jslds_rnn_x_star_is_zeros=jslds_rnn_x_star_is_zeros, get_batch_rnn_run_fun=get_batch_rnn_run_fun, loss_jit=loss_jit, update_w_gc_jit=update_w_gc_jit, run_trials=run_trials)  # scaffolding: the imported module
nbit = types.SimpleNamespace(nbit_memory_build_inputs_and_targets=nbit_memory_build_inputs_and_targets)  # scaffolding: the imported module
# cell 5
# Numpy, JAX, and Matplotlib should all be correctly installed and on the 
# python path.
import time
import jax
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers moved
import jax.numpy as jnp
import math
import numpy as np             # original CPU-backed NumPy
# cell 15
reload_trained_model = False  # scaffolding: the training path (True loads the paper's weights)
# cell 18
# Nbit memory parameters
ntimesteps = 25
p = 0.3
flip_prob = np.array([(p / 2), (1 - p), (p / 2)])
nmem_inputs = 3
u = nmem_inputs * 2
o = nmem_inputs     # Number of outputs in the RNN

input_params = (ntimesteps, nmem_inputs, flip_prob)
nbit_memory_build_partial = lambda skeys: nbit.nbit_memory_build_inputs_and_targets(input_params,skeys)
nbit_memory_build_inputs_and_targets_jit = jax.jit(nbit_memory_build_partial)
build_inputs_and_targets = nbit_memory_build_inputs_and_targets_jit

#set u_star (input to expand around in taylor approximation) to zeros (average of the inputs)
jslds_rnn = JSLDS.jslds_rnn_x_star_is_zeros
# cell 23
if not reload_trained_model:  # scaffolding: the cell's first line has one leading space, which IPython strips
    # These four HPS dictate how the JSLDS is trained up. 
    fp_reg = 100.0         # \lambda_e: fixed point regularizer strength
    out_nl_reg = 3.0       # \lambda_RNN: nonlinear RNN loss strength
    out_staylor_reg = 1.0  # \lambda_JSLDS: JSLDS loss strength
    taylor_reg = 10.0      # \lambda_a: hidden state approximation regularizer
# cell 25
if not reload_trained_model:
    # RNN hyperparameters
    n = 100                      # Number of units in the RNN
    rnn_params_fun = JSLDS.gru_params
    rnn_fun = JSLDS.gru
    taylor_series_rnn_order = 1  # Taylor series expansion order

    i_factor = 1.0               # input scale
    h_factor = 0.9               # Scaling of the recurrent weight matrix
    recurrent_is_identity = False
    h_scale = 0.1          
    rnn_hps = {'u' : u, 'n' : n, 
               'recurrent_is_identity' : recurrent_is_identity, 
              'h_factor' : h_factor, 
              'h_scale' : h_scale, 'i_factor' : i_factor,
              'params_fun' : rnn_params_fun, 
              'fun' : rnn_fun, 'order' : taylor_series_rnn_order}  
    
    nlayers = 2               # of MLP layers
    hps = {'mlp' : {'nlayers' : nlayers, 'n' : n}, 
          'rnn' : rnn_hps, 
          'out' : {'u' : n, 'o' : o, 'i_factor' : 1.0}}


    # Optimization hyperparameters
    num_batchs = 6  # scaffolding: 6 instead of 40000
    batch_size = 16  # scaffolding: 16 instead of 256
    eval_batch_size = 1024    # Evaluation batch size
    step_size = 0.02          # initial learning rate
    decay_factor = 0.9999     # decay the learning rate this much
    max_grad_norm = 10.0      # max gradient norm before clipping
    adam_b1 = 0.9             # Adam parameters
    adam_b2 = 0.999
    adam_eps = 1e-1
    print_every = 2  # scaffolding: 2 instead of 500

    l2_reg = 0.0             # amount of L2 regularization on the weights
 

    opt_hps = {'num_batches' : num_batchs, 'batch_size' : batch_size, 
              'eval_batch_size' : eval_batch_size, 'print_every' : print_every,
              'step_size' : step_size, 'decay_factor' : decay_factor, 
              'max_grad_norm' : max_grad_norm, 
              'out_nl_reg': out_nl_reg, 'out_staylor_reg' : out_staylor_reg,
              'l2_reg' : l2_reg, 'fp_reg' : fp_reg, 'taylor_reg' : taylor_reg, 
              'adam_b1' : adam_b1, 'adam_b2': adam_b2, 'adam_eps': adam_eps}


# cell 27
# Plot input/target example and define batch RNN function

seed = 1920
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

#Define function to run the model on batches
batch_rnn_run = JSLDS.get_batch_rnn_run_fun(hps['rnn']['fun'], jslds_rnn)
# cell 29
if not reload_trained_model:
    # Init some parameters for training.
    key, subkey = jax.random.split(key, 2)
    init_params = JSLDS.jslds_rnn_params(subkey, **hps)
    rnn_run = lambda inputs: batch_rnn_run(init_params, inputs)

    key, skey = jax.random.split(key)
    rnn_internals = JSLDS.run_trials(rnn_run, inputs_targets_no_h0s, 
                                     1, 16, skey)
    key, skey = jax.random.split(key)
    # scaffolding: plotting.plot_examples dropped
# cell 31
if not reload_trained_model:
    # Create a decay function for the learning rate
    decay_fun = optimizers.exponential_decay(opt_hps['step_size'], 
                                            decay_steps=1, 
                                            decay_rate=opt_hps['decay_factor'])

    # scaffolding: the learning-rate plot dropped
# cell 33
if not reload_trained_model:
    # Run the optimization loop, first jit'd call will take a few minutes.
    all_train_losses = []

    opt_init, opt_update, opt_get_params = \
        optimizers.adam(decay_fun, opt_hps['adam_b1'], opt_hps['adam_b2'], 
                        opt_hps['adam_eps'])
    opt_state = opt_init(init_params)
    start_time = time.time()


    for batch_idx in range(num_batchs):
        key, skey = jax.random.split(key)
        skeys = jax.random.split(skey, batch_size)
        inputs, targets, masks = build_inputs_and_targets(skeys)
        opt_state = JSLDS.update_w_gc_jit(batch_idx, opt_state, opt_update, 
                                          opt_get_params, inputs,
                                    targets, masks, opt_hps['max_grad_norm'], 
                                    opt_hps['out_nl_reg'], opt_hps['out_staylor_reg'],
                                    opt_hps['taylor_reg'], opt_hps['fp_reg'], 
                                    opt_hps['l2_reg'], 
                                    hps['rnn']['fun'], jslds_rnn)
        if batch_idx % print_every == 0:
            params = opt_get_params(opt_state)
            all_train_losses.append(JSLDS.loss_jit(params, inputs, targets, 
                                                   masks,
                                            opt_hps['out_nl_reg'],
                                            opt_hps['out_staylor_reg'],
                                            opt_hps['taylor_reg'], 
                                            opt_hps['fp_reg'], 
                                            opt_hps['l2_reg'], 
                                            hps['rnn']['fun'], jslds_rnn))
            train_loss = all_train_losses[-1]['total']
            batch_time = time.time() - start_time
            step_size = decay_fun(batch_idx)
            s = "Batch {} in {:0.2f} sec, step size: {:0.5f}, training loss {:0.4f}"
            print(s.format(batch_idx, batch_time, step_size, train_loss))
            start_time = time.time()
            
    # List of dicts to dict of lists
    all_train_losses = {k: [dic[k] for dic in all_train_losses] for k in all_train_losses[0]}
# cell 37
# Take a batch for an evaluation loss, notice all penalties are 0 for 
#the evaluation, except for the relevant task penalty

if not reload_trained_model:
    params = opt_get_params(opt_state)

key, skey = jax.random.split(key)

ntries = 5  # scaffolding: 5 instead of 1000
eval_losses = np.zeros(ntries)
eval_losses_j = np.zeros(ntries)
for try_idx in range(ntries):
    key, subkey = jax.random.split(key, 2)
    skeys = jax.random.split(subkey, batch_size)
    inputs, targets, masks = build_inputs_and_targets(skeys)
    eval_loss = JSLDS.loss_jit(params, inputs, targets, masks,
                         1.0,
                         0.0,
                         0.0, 0.0, 0.0, 
                         hps['rnn']['fun'], jslds_rnn)['total']
    eval_losses[try_idx] = eval_loss
    eval_loss_j = JSLDS.loss_jit(params, inputs, targets, masks,
                      0.0,
                      1.0,
                      0.0, 0.0, 0.0, 
                      hps['rnn']['fun'],jslds_rnn)['total']
    eval_losses_j[try_idx] = eval_loss_j

_report({"jit(<lambda>)", "jit(update_w_gc)", "jit(loss)"}, 2 + 2 * num_batchs + num_batchs // print_every + 3 * ntries)  # scaffolding: calls of the three jitted functions
