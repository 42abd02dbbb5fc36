# source: https://github.com/google-research/computation-thru-dynamics/issues/6
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the hyperparameter dicts frozen into hashable FrozenDicts, the static arguments hash by value, so optimize_lfads_core_jit compiles once and both print periods reuse it (and lfads_losses_jit works too).
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



from types import SimpleNamespace  # scaffolding: stands in for the lfads_tutorial package modules
import time
import jax.numpy as np
from jax import grad, jit, lax, random, vmap
from functools import partial
# from jax.experimental import optimizers  (moved in jax 0.10.2)
from jax.example_libraries import optimizers  # scaffolding: jax.experimental.optimizers is now jax.example_libraries.optimizers
import numpy as onp  # original CPU-backed NumPy
from flax.core import FrozenDict  # fix: a hashable mapping for the static hyperparameters


# --- lfads_tutorial/utils.py (the parts used here) ---
MAX_SEED_INT = 10000000


def split_data(data_b, train_fraction):
  """Split the data into training and evaluation sets.

  Arguments:
    data_b: np array, data whose leading dimension is the batch

  Returns:
    2-tuple of trainind and eval splits
  """
  train_data_offset = 0
  ndata = data_b.shape[0]
  eval_data_offset = int(train_fraction * ndata)
  train_data = data_b[train_data_offset:eval_data_offset]
  eval_data = data_b[eval_data_offset:]

  return train_data, eval_data


def merge_losses_dicts(list_of_dicts):
  """List of dictionaries converted to dictionary of lists (numpy arrays).

  Arguments:
    list_of_dicts: list of dictionaries

  Returns:
    a single dictionary with merged keys and values of np arrays """
  merged_d = {}
  d = list_of_dicts[0]
  for k in d:
    merged_d[k] = []
  for d in list_of_dicts:
    for k in d:
      merged_d[k].append(d[k])
  for k in merged_d:
    merged_d[k] = onp.array(merged_d[k])
  return merged_d


def average_lfads_batch(lfads_dict):
  """Average over a run of lfads, for posterior sample and average.

  Arguments:
    lfads_dict: A dictionary of lfads hidden states, each value is a np array
      with leading dim being batch.

  Returns:
    A dictionary with np arrays whose leading dim has been averaged over.
  """
  avg_dict = {}
  for k in lfads_dict:
    avg_dict[k] = onp.mean(lfads_dict[k], axis=0)
  return avg_dict


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


utils = SimpleNamespace(MAX_SEED_INT=MAX_SEED_INT, split_data=split_data, merge_losses_dicts=merge_losses_dicts, average_lfads_batch=average_lfads_batch, keygen=keygen)  # scaffolding


# --- lfads_tutorial/distributions.py ---
def poisson_log_likelihood(x, log_rate):
  """Compute the log likelihood under Poisson distribution

    log poisson(k, r) = log(r^k * e^(-r) / k!)
                      = k log(r) - r - log k!
    log poisson(k, r=exp(l)) = k * l - exp(l) - lgamma(k + 1)

  Args:
    x: binned spike count data.
    log_rate: The (log) rate that define the likelihood of the data
      under the LFADS model.

  Returns:
    The log-likelihood of the data under the model (up to a constant factor).
  """
  # TODO(sussillo): implement full log-likelihood when lgamma is available.
  # Will likely have to be careful about float->int casting then.
  return x * log_rate - np.exp(log_rate) #- np.lgamma(x + 1)


def diag_gaussian_sample(key, mean, logvar, varmin=1e-16):
  """x ~ N(mean, exp(logvar))

  Arguments:
    key: random.PRNGKey for random bits
    mean: np array, mean of gaussian
    logvar: np array, log variance of gaussian
    varmin: minimum variance allowed, helps with numerical stability

  Returns:
    np array samples from the gaussian of the same size as mean and logvar"""
  logvar_wm = np.log(np.exp(logvar) + varmin)
  return mean + np.exp(0.5*logvar_wm) * random.normal(key, mean.shape)


def diag_gaussian_log_likelihood(z, mean=0.0, logvar=0.0, varmin=1e-16):
  """Log-likelihood under a Gaussian distribution with diagonal covariance.
     Returns the log-likelihood for each dimension.

  Args:
    z: The value to compute the log-likelihood.
    mean: The mean of the Gaussian
    logvar: The log variance of the Gaussian.
    varmin: Minimum variance allowed (numerically useful).

  Returns:
    The log-likelihood under the Gaussian model.
  """
  logvar_wm = np.log(np.exp(logvar) + varmin)
  return (-0.5 * (logvar + np.log(2*np.pi) +
                  np.square((z-mean)/( np.exp(0.5*(logvar_wm))))))


def kl_gauss_gauss(z_mean, z_logvar, prior_params, varmin=1e-16):
  """Compute the KL divergence between two diagonal Gaussian distributions.
            KL(q||p) = E_q[log q(z) - log p(z))]
   Args:
    z_mean: mean of posterior, z ~ q(z|x)
    z_logvar: logvar of posterior
    prior_z_mean: mean of prior, z ~ p(z)
    prior_z_logvar: logvar of prior
    varmin: minimum variance allowed, useful for numerical stability

    Returns:
      np array of KL, computed analytically, same size as z_mean
  """
  z_logvar_wm = np.log(np.exp(z_logvar) + varmin)
  prior_mean = prior_params['mean']
  prior_logvar_wm = np.log(np.exp(prior_params['logvar']) + varmin)
  return (0.5 * (prior_logvar_wm - z_logvar_wm
                 + np.exp(z_logvar_wm - prior_logvar_wm)
                 + np.square((z_mean - prior_mean) / np.exp(0.5 * prior_logvar_wm))
                 - 1.0))


# This function is used in the loss, which is already batch aware. But the
# prior parameters are the same across batch, thus in_axes below.
batch_kl_gauss_gauss = vmap(kl_gauss_gauss, in_axes=(0, 0, None, None))


def kl_gauss_ar1(key, z_mean_t, z_logvar_t, ar1_params, varmin=1e-16):
  """KL using samples for multi-dim gaussian (thru time) and AR(1) process.
  To sample KL(q||p), we sample
        ln q - ln p
  by drawing samples from q and averaging. q is multidim gaussian, p
  is AR(1) process.

  Arguments:
    key: random.PRNGKey for random bits
    z_mean_t: np.array of means with leading dim being time
    z_logvar_t: np.array of log vars, leading dim is time
    ar1_params: dictionary of ar1 parameters, log noise var and autocorr tau
    varmin: minimal variance, useful for numerical stability

  Returns:
    sampled KL divergence between
  """
  ll = diag_gaussian_log_likelihood
  sample = diag_gaussian_sample
  nkeys = z_mean_t.shape[0]
  key, skeys = utils.keygen(key, nkeys)

  # Convert AR(1) parameters.
  # z_t = c + phi z_{t-1} + eps, eps \in N(0, noise var)
  ar1_mean = ar1_params['mean']
  ar1_lognoisevar = np.log(np.exp(ar1_params['lognvar'] + varmin))
  phi = np.exp(-np.exp(-ar1_params['logatau']))
  # The process variance a function of noise variance, so I added varmin above.
  # This affects log-likelihood funtions below, also.
  logprocessvar = ar1_lognoisevar - (np.log(1-phi) + np.log(1+phi))

  # Sample first AR(1) step according to process variance.
  z0 = sample(next(skeys), z_mean_t[0], z_logvar_t[0], varmin)
  logq = ll(z0, z_mean_t[0], z_logvar_t[0], varmin)
  logp = ll(z0, ar1_mean, logprocessvar, 0.0)
  z_last = z0

  # Sample the remaining time steps with adjusted mean and noise variance.
  for z_mean, z_logvar in zip(z_mean_t[1:], z_logvar_t[1:]):
    z = sample(next(skeys), z_mean, z_logvar, varmin)
    logq += ll(z, z_mean, z_logvar, varmin)
    logp += ll(z, ar1_mean + phi * z_last, ar1_lognoisevar, 0.0)
    z_last = z

  kl = logq - logp
  return kl


# This function is used in the loss, which is already batch aware. But the
# prior parameters are the same across batch, thus in_axes below.
batch_kl_gauss_ar1 = vmap(kl_gauss_ar1, in_axes=(0, 0, 0, None, None))


def diagonal_gaussian_params(key, n, mean=0.0, var=1.0):
  """Generate parameters for a diagonal gaussian distribution.

  Arguments:
    key: random.PRNGKey for random bits
    n: size of gaussian
    mean: mean of diagonal gaussian
    var: variance of diagonal gaussian

  Returns:
   dict of np arrays for the initial parameters of the gaussian
  """
  return {'mean' : mean * np.ones((n,)),
          'logvar' : np.log(var) * np.ones((n,))}


def ar1_params(key, n, mean, autocorrelation_tau, noise_variance):
  """AR1 model x_t = c + phi x_{t-1} + eps, w/ eps \in N(0, noise_var)

  Model an autoregressive model with a mean, autocorrelation tau and noise
  variance. Under the hood, the autocorrelation tau and noise variance are
  transformed into phi and the process variance, as needed.

  Arguments:
    key: random.PRNGKey for random bits
    n: number of ar1 processes to model
    mean: mean of ar1 process
    autocorrelation_tau: autocorrelation time constant of ar1
    noise_variance: noise variance of ar1

  Returns:
    a dictionary of np arrays for the parameters of the ar 1 process
  """
  return {'mean' : mean * np.ones((n,)),
          'logatau' : np.log(autocorrelation_tau * np.ones((n,))),
          'lognvar' : np.log(noise_variance) * np.ones((n,))}

dists = SimpleNamespace(poisson_log_likelihood=poisson_log_likelihood, diag_gaussian_sample=diag_gaussian_sample, diag_gaussian_log_likelihood=diag_gaussian_log_likelihood, kl_gauss_gauss=kl_gauss_gauss, batch_kl_gauss_gauss=batch_kl_gauss_gauss, kl_gauss_ar1=kl_gauss_ar1, batch_kl_gauss_ar1=batch_kl_gauss_ar1, diagonal_gaussian_params=diagonal_gaussian_params, ar1_params=ar1_params)  # scaffolding


# --- lfads_tutorial/lfads.py ---
def sigmoid(x):
  return 0.5 * (np.tanh(x / 2.) + 1)


def linear_params(key, o, u, ifactor=1.0):
  """Params for y = w x

  Arguments:
    key: random.PRNGKey for random bits
    o: output size
    u: input size
    ifactor: scaling factor

  Returns:
    a dictionary of parameters
  """
  key, skeys = utils.keygen(key, 1)
  ifactor = ifactor / np.sqrt(u)
  return {'w' : random.normal(next(skeys), (o, u)) * ifactor}


def affine_params(key, o, u, ifactor=1.0):
  """Params for y = w x + b

  Arguments:
    key: random.PRNGKey for random bits
    o: output size
    u: input size
    ifactor: scaling factor

  Returns:
    a dictionary of parameters
  """
  key, skeys = utils.keygen(key, 1)
  ifactor = ifactor / np.sqrt(u)
  return {'w' : random.normal(next(skeys), (o, u)) * ifactor,
          'b' : np.zeros((o,))}


def gru_params(key, n, u, ifactor=1.0, hfactor=1.0, hscale=0.0):
  """Generate GRU parameters

  Arguments:
    key: random.PRNGKey for random bits
    n: hidden state size
    u: input size
    ifactor: scaling factor for input weights
    hfactor: scaling factor for hidden -> hidden weights
    hscale: scale on h0 initial condition

  Returns:
    a dictionary of parameters
  """
  key, skeys = utils.keygen(key, 5)
  ifactor = ifactor / np.sqrt(u)
  hfactor = hfactor / np.sqrt(n)

  wRUH = random.normal(next(skeys), (n+n,n)) * hfactor
  wRUX = random.normal(next(skeys), (n+n,u)) * ifactor
  wRUHX = np.concatenate([wRUH, wRUX], axis=1)

  wCH = random.normal(next(skeys), (n,n)) * hfactor
  wCX = random.normal(next(skeys), (n,u)) * ifactor
  wCHX = np.concatenate([wCH, wCX], axis=1)

  return {'h0' : random.normal(next(skeys), (n,)) * hscale,
          'wRUHX' : wRUHX,
          'wCHX' : wCHX,
          'bRU' : np.zeros((n+n,)),
          'bC' : np.zeros((n,))}


def affine(params, x):
  """Implement y = w x + b

  Arguments:
    params: a dictionary of params
    x: np array of input

  Returns:
    np array of output
  """
  return np.dot(params['w'], x) + params['b']


# Affine expects n_W_m m_x_1, but passing in t_x_m (has txm dims)
# So map over first dimension to hand t_x_m.
# I.e. if affine yields n_y_1 = dot(n_W_m, m_x_1), then
# batch_affine yields t_y_n.
# And so the vectorization pattern goes for all batch_* functions.
batch_affine = vmap(affine, in_axes=(None, 0))


def normed_linear(params, x):
  """Implement y = \hat{w} x, where \hat{w}_ij = w_ij / |w_{i:}|, norm over j

  Arguments:
    params: a dictionary of params
    x: np array of input

  Returns:
    np array of output
  """
  w = params['w']
  w_row_norms = np.sqrt(np.sum(w**2, axis=1, keepdims=True))
  w = w / w_row_norms
  return np.dot(w, x)


# Note not BatchNorm, the neural network regularizer,
# rather just batching the normed linear function above.
batch_normed_linear = vmap(normed_linear, in_axes=(None, 0))


def dropout(x, key, keep_rate):
  """Implement a dropout layer.

  Arguments:
    x: np array to be dropped out
    key: random.PRNGKey for random bits
    keep_rate: dropout rate

  Returns:
    np array of dropped out x
  """
  # The shenanigans with np.where are to avoid having to re-jit if
  # keep rate changes.
  do_keep = random.bernoulli(key, keep_rate, x.shape)
  kept_rates = np.where(do_keep, x / keep_rate, 0.0)
  return np.where(keep_rate < 1.0, kept_rates, x)


# Note that dropout is a feed-forward routine that requires randomness. Thus,
# the keys argument is also vectorized over, and you'll see the correct
# number of keys allocated by the caller.
batch_dropout = vmap(dropout, in_axes=(0, 0, None))


def run_dropout(x_t, key, keep_rate):
  """Run the dropout layer over additional dimensions, e.g. time.

  Arguments:
    x_t: np array to be dropped out
    key: random.PRNGKey for random bits
    keep_rate: dropout rate

  Returns:
    np array of dropped out x
  """
  ntime = x_t.shape[0]
  keys = random.split(key, ntime)
  return batch_dropout(x_t, keys, keep_rate)


def gru(params, h, x):
  """Implement the GRU equations.

  Arguments:
    params: dictionary of GRU parameters
    h: np array of  hidden state
    x: np array of input

  Returns:
    np array of hidden state after GRU update"""
  bfg = 0.5
  hx = np.concatenate([h, x], axis=0)
  ru = np.dot(params['wRUHX'], hx) + params['bRU']
  r, u = np.split(ru, 2, axis=0)
  u = u + bfg
  r = sigmoid(r)
  u = sigmoid(u)
  rhx = np.concatenate([r * h, x])
  c = np.tanh(np.dot(params['wCHX'], rhx) + params['bC'])
  return u * h + (1.0 - u) * c


def make_rnn_for_scan(rnn, params):
  """Scan requires f(h, x) -> h, h, in this application.
  Args: 
    rnn : f with sig (params, h, x) -> h
    params: params in f() sig.

  Returns: 
    f adapted for scan
  """
  def rnn_for_scan(h, x):
    h = rnn(params, h, x)
    return h, h
  return rnn_for_scan


def run_rnn(rnn_for_scan, x_t, h0):
  """Run an RNN module forward in time.

  Arguments:
    rnn_for_scan: function for running RNN one step (h, x) -> (h, h)
      The params already embedded in the function.
    x_t: np array data for RNN input with leading dim being time
    h0: initial condition for running rnn

  Returns:
    np array of rnn applied to time data with leading dim being time"""
  _, h_t = lax.scan(rnn_for_scan, h0, x_t)
  return h_t


def run_bidirectional_rnn(params, fwd_rnn, bwd_rnn, x_t):
  """Run an RNN encoder backwards and forwards over some time series data.

  Arguments:
    params: a dictionary of bidrectional RNN encoder parameters
    fwd_rnn: function for running forward rnn encoding
    bwd_rnn: function for running backward rnn encoding
    x_t: np array data for RNN input with leading dim being time

  Returns:
    tuple of np array concatenated forward, backward encoding, and
      np array of concatenation of [forward_enc(T), backward_enc(1)]
  """
  fwd_rnn_scan = make_rnn_for_scan(fwd_rnn, params['fwd_rnn'])
  bwd_rnn_scan = make_rnn_for_scan(bwd_rnn, params['bwd_rnn'])

  fwd_enc_t = run_rnn(fwd_rnn_scan, x_t, params['fwd_rnn']['h0'])
  bwd_enc_t = np.flipud(run_rnn(bwd_rnn_scan, np.flipud(x_t),
                                params['bwd_rnn']['h0']))
  full_enc = np.concatenate([fwd_enc_t, bwd_enc_t], axis=1)
  enc_ends = np.concatenate([bwd_enc_t[0], fwd_enc_t[-1]], axis=0)
  return full_enc, enc_ends


def lfads_params(key, lfads_hps):
  """Instantiate random LFADS parameters.

  Arguments:
    key: random.PRNGKey for random bits
    lfads_hps: a dict of LFADS hyperparameters

  Returns:
    a dictionary of LFADS parameters
  """
  key, skeys = utils.keygen(key, 10)

  data_dim = lfads_hps['data_dim']
  ntimesteps = lfads_hps['ntimesteps']
  enc_dim = lfads_hps['enc_dim']
  con_dim = lfads_hps['con_dim']
  ii_dim = lfads_hps['ii_dim']
  gen_dim = lfads_hps['gen_dim']
  factors_dim = lfads_hps['factors_dim']

  ic_enc_params = {'fwd_rnn' : gru_params(next(skeys), enc_dim, data_dim),
                   'bwd_rnn' : gru_params(next(skeys), enc_dim, data_dim)}
  gen_ic_params = affine_params(next(skeys), 2*gen_dim, 2*enc_dim) #m,v <- bi
  ic_prior_params = dists.diagonal_gaussian_params(next(skeys), gen_dim, 0.0,
                                                   lfads_hps['ic_prior_var'])
  con_params = gru_params(next(skeys), con_dim, 2*enc_dim + factors_dim)
  con_out_params = affine_params(next(skeys), 2*ii_dim, con_dim) #m,v
  ii_prior_params = dists.ar1_params(next(skeys), ii_dim,
                                     lfads_hps['ar_mean'],
                                     lfads_hps['ar_autocorrelation_tau'],
                                     lfads_hps['ar_noise_variance'])
  gen_params = gru_params(next(skeys), gen_dim, ii_dim)
  factors_params = linear_params(next(skeys), factors_dim, gen_dim)
  lograte_params = affine_params(next(skeys), data_dim, factors_dim)

  return {'ic_enc' : ic_enc_params,
          'gen_ic' : gen_ic_params, 'ic_prior' : ic_prior_params,
          'con' : con_params, 'con_out' : con_out_params,
          'ii_prior' : ii_prior_params,
          'gen' : gen_params, 'factors' : factors_params,
          'logrates' : lograte_params}


def lfads_encode(params, lfads_hps, key, x_t, keep_rate):
  """Run the LFADS network from input to generator initial condition vars.

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    key: random.PRNGKey for random bits
    x_t: np array input for lfads with leading dimension being time
    keep_rate: dropout keep rate

  Returns:
    3-tuple of np arrays: generator initial condition mean, log variance
      and also bidirectional encoding of x_t, with leading dim being time
  """
  key, skeys = utils.keygen(key, 3)

  # Encode the input
  x_t = run_dropout(x_t, next(skeys), keep_rate)
  con_ins_t, gen_pre_ics = run_bidirectional_rnn(params['ic_enc'], gru, gru,
                                                 x_t)
  # Push through to posterior mean and variance for initial conditions.
  xenc_t = dropout(con_ins_t, next(skeys), keep_rate)
  gen_pre_ics = dropout(gen_pre_ics, next(skeys), keep_rate)
  ic_gauss_params = affine(params['gen_ic'], gen_pre_ics)
  ic_mean, ic_logvar = np.split(ic_gauss_params, 2, axis=0)
  return ic_mean, ic_logvar, xenc_t


def lfads_decode_one_step(params, lfads_hps, key, keep_rate, c, f, g, xenc):
  """Run the LFADS network from latent variables to log rates one time step.

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    key: random.PRNGKey for random bits
    keep_rate: dropout keep rate
    c: controller state at time step t-1
    g: generator state at time step t-1
    f: factors at time step t-1
    xenc: np array bidirectional encoding at time t of input (x_t)

  Returns:
    7-tuple of np arrays all with leading dim being time,
      controller hidden state, generator hidden state, factors, 
      inferred input (ii) sample, ii mean, ii log var, log rates
  """
  keys = random.split(key, 2)
  cin = np.concatenate([xenc, f], axis=0)
  c = gru(params['con'], c, cin)
  cout = affine(params['con_out'], c)
  ii_mean, ii_logvar = np.split(cout, 2, axis=0) # inferred input params
  ii = dists.diag_gaussian_sample(keys[0], ii_mean,
                                  ii_logvar, lfads_hps['var_min'])
  g = gru(params['gen'], g, ii)
  g = dropout(g, keys[1], keep_rate)
  f = normed_linear(params['factors'], g)
  lograte = affine(params['logrates'], f)
  return c, g, f, ii, ii_mean, ii_logvar, lograte
    

def lfads_decode_one_step_scan(params, lfads_hps, keep_rate, state, key_n_xenc):
  """Run the LFADS network one step, prepare the inputs and outputs for scan.

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    keep_rate: dropout keep rate
    state: (controller state at time step t-1, generator state at time step t-1, 
            factors at time step t-1)
    key_n_xenc: (random key, np array bidirectional encoding at time t of input (x_t))

  Returns: 2-tuple of state and state plus returned values
    ((controller state, generator state, factors), 
    (7-tuple of np arrays all with leading dim being time,
      controller hidden state, generator hidden state, factors, 
      inferred input (ii) sample, ii mean, ii log var, 
      log rate))
  """
  key, xenc = key_n_xenc
  c, g, f = state
  state_and_returns = lfads_decode_one_step(params, lfads_hps, key, keep_rate,
                                            c, f, g, xenc)
  c, g, f, ii, ii_mean, ii_logvar, lograte = state_and_returns
  state = (c, g, f)
  return state, state_and_returns


def lfads_decode(params, lfads_hps, key, ic_mean, ic_logvar, xenc_t, keep_rate):
  """Run the LFADS network from latent variables to log rates.

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    key: random.PRNGKey for random bits
    ic_mean: np array of generator initial condition mean
    ic_logvar: np array of generator initial condition log variance
    xenc_t: np array bidirectional encoding of input (x_t) with leading dim
      being time
    keep_rate: dropout keep rate

  Returns:
    7-tuple of np arrays all with leading dim being time,
      controller hidden state, inferred input mean, inferred input log var,
      generator hidden state, factors and log rates
  """

  ntime = lfads_hps['ntimesteps']
  key, skeys = utils.keygen(key, 2)

  # Since the factors feed back to the controller,
  #    factors_{t-1} -> controller_t -> sample_t -> generator_t -> factors_t
  # is really one big loop and therefor one RNN.
  c0 = params['con']['h0']
  g0 = dists.diag_gaussian_sample(next(skeys), ic_mean, ic_logvar,
                                  lfads_hps['var_min'])
  f0 = np.zeros((lfads_hps['factors_dim'],))

  # Make all the randomness for all T steps at once, it's more efficient.
  # The random keys get passed into scan along with the input, so the input
  # becomes of a 2-tuple (keys, actual input).
  T = xenc_t.shape[0]
  keys_t = random.split(next(skeys), T)
  
  state0 = (c0, g0, f0)
  decoder = partial(lfads_decode_one_step_scan, *(params, lfads_hps, keep_rate))
  _, state_and_returns_t = lax.scan(decoder, state0, (keys_t, xenc_t))
  return state_and_returns_t


def lfads(params, lfads_hps, key, x_t, keep_rate):
  """Run the LFADS network from input to output.

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    key: random.PRNGKey for random bits
    x_t: np array of input with leading dim being time
    keep_rate: dropout keep rate

  Returns:
    A dictionary of np arrays of all LFADS values of interest.
  """

  key, skeys = utils.keygen(key, 2)

  ic_mean, ic_logvar, xenc_t = \
      lfads_encode(params, lfads_hps, next(skeys), x_t, keep_rate)

  c_t, gen_t, factor_t, ii_t, ii_mean_t, ii_logvar_t, lograte_t = \
      lfads_decode(params, lfads_hps, next(skeys), ic_mean, ic_logvar,
                   xenc_t, keep_rate)
  
  # As this is tutorial code, we're passing everything around.
  return {'xenc_t' : xenc_t, 'ic_mean' : ic_mean, 'ic_logvar' : ic_logvar,
          'ii_t' : ii_t, 'c_t' : c_t, 'ii_mean_t' : ii_mean_t,
          'ii_logvar_t' : ii_logvar_t, 'gen_t' : gen_t, 'factor_t' : factor_t,
          'lograte_t' : lograte_t}


lfads_encode_jit = jit(lfads_encode)
lfads_decode_jit = jit(lfads_decode, static_argnums=(1,))
lfads_jit = jit(lfads, static_argnums=(1,))

# Batching accomplished by vectorized mapping.
# We simultaneously map over random keys for forward-pass randomness
# and inputs for batching.
batch_lfads = vmap(lfads, in_axes=(None, None, 0, 0, None))


def lfads_losses(params, lfads_hps, key, x_bxt, kl_scale, keep_rate):
  """Compute the training loss of the LFADS autoencoder

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    key: random.PRNGKey for random bits
    x_bxt: np array of input with leading dims being batch and time
    keep_rate: dropout keep rate
    kl_scale: scale on KL

  Returns:
    a dictionary of all losses, including the key 'total' used for optimization
  """

  B = lfads_hps['batch_size']
  key, skeys = utils.keygen(key, 2)
  keys_b = random.split(next(skeys), B)
  lfads = batch_lfads(params, lfads_hps, keys_b, x_bxt, keep_rate)

  # Sum over time and state dims, average over batch.
  # KL - g0
  ic_post_mean_b = lfads['ic_mean']
  ic_post_logvar_b = lfads['ic_logvar']
  kl_loss_g0_b = dists.batch_kl_gauss_gauss(ic_post_mean_b, ic_post_logvar_b,
                                            params['ic_prior'],
                                            lfads_hps['var_min'])
  kl_loss_g0_prescale = np.sum(kl_loss_g0_b) / B  
  kl_loss_g0 = kl_scale * kl_loss_g0_prescale
  
  # KL - Inferred input
  ii_post_mean_bxt = lfads['ii_mean_t']
  ii_post_var_bxt = lfads['ii_logvar_t']
  keys_b = random.split(next(skeys), B)
  kl_loss_ii_b = dists.batch_kl_gauss_ar1(keys_b, ii_post_mean_bxt,
                                          ii_post_var_bxt, params['ii_prior'],
                                          lfads_hps['var_min'])
  kl_loss_ii_prescale = np.sum(kl_loss_ii_b) / B
  kl_loss_ii = kl_scale * kl_loss_ii_prescale
  
  # Log-likelihood of data given latents.
  lograte_bxt = lfads['lograte_t']
  log_p_xgz = np.sum(dists.poisson_log_likelihood(x_bxt, lograte_bxt)) / B

  # L2
  l2reg = lfads_hps['l2reg']
  l2_loss = l2reg * optimizers.l2_norm(params)**2

  loss = -log_p_xgz + kl_loss_g0 + kl_loss_ii + l2_loss
  all_losses = {'total' : loss, 'nlog_p_xgz' : -log_p_xgz,
                'kl_g0' : kl_loss_g0, 'kl_g0_prescale' : kl_loss_g0_prescale,
                'kl_ii' : kl_loss_ii, 'kl_ii_prescale' : kl_loss_ii_prescale,
                'l2' : l2_loss}
  return all_losses


def lfads_training_loss(params, lfads_hps, key, x_bxt, kl_scale, keep_rate):
  """Pull out the total loss for training.

  Arguments:
    params: a dictionary of LFADS parameters
    lfads_hps: a dictionary of LFADS hyperparameters
    key: random.PRNGKey for random bits
    x_bxt: np array of input with leading dims being batch and time
    keep_rate: dropout keep rate
    kl_scale: scale on KL

  Returns:
    return the total loss for optimization
  """
  losses = lfads_losses(params, lfads_hps, key, x_bxt, kl_scale, keep_rate)
  return losses['total']


def posterior_sample_and_average(params, lfads_hps, key, x_txd):
  """Get the denoised lfad inferred values by posterior sample and average.

  Arguments:
    params: dictionary of lfads parameters
    lfads_hps: dict of LFADS hyperparameters
    key: JAX random state
    x_txd: 2d np.array time by dim trial to denoise

  Returns: 
    LFADS dictionary of inferred values, averaged over randomness.
  """
  batch_size = lfads_hps['batch_size']
  skeys = random.split(key, batch_size)  
  x_bxtxd = np.repeat(np.expand_dims(x_txd, axis=0), batch_size, axis=0)
  keep_rate = 1.0
  lfads_dict = batch_lfads(params, lfads_hps, skeys, x_bxtxd, keep_rate)
  return utils.average_lfads_batch(lfads_dict)


### JIT

# JIT functions are orders of magnitude faster.  The first time you use them,
# they will take a couple of minutes to compile, then the second time you use
# them, they will be blindingly fast.

# The static_argnums is telling JAX to ignore the lfads_hps dictionary,
# which means you'll have to pay attention if you change the params.
# How does one force a recompile?
batch_lfads_jit = jit(batch_lfads, static_argnums=(1,))
lfads_losses_jit = jit(lfads_losses, static_argnums=(1,))
lfads_training_loss_jit = jit(lfads_training_loss, static_argnums=(1,))
posterior_sample_and_average_jit = jit(posterior_sample_and_average, static_argnums=(1,))

                  
  

lfads = SimpleNamespace(lfads_params=lfads_params, lfads_training_loss=lfads_training_loss, lfads_losses_jit=lfads_losses_jit)  # scaffolding


# --- lfads_tutorial/optimize.py ---
def get_kl_warmup_fun(lfads_opt_hps):
  """Warmup KL cost to avoid a pathological condition early in training.

  Arguments:
    lfads_opt_hps : dictionary of optimization hyperparameters

  Returns:
    a function which yields the warmup value
  """

  kl_warmup_start = lfads_opt_hps['kl_warmup_start']
  kl_warmup_end = lfads_opt_hps['kl_warmup_end']
  kl_min = lfads_opt_hps['kl_min']
  kl_max = lfads_opt_hps['kl_max']
  def kl_warmup(batch_idx):
    progress_frac = ((batch_idx - kl_warmup_start) /
                     (kl_warmup_end - kl_warmup_start))
    kl_warmup = np.where(batch_idx < kl_warmup_start, kl_min,
                         (kl_max - kl_min) * progress_frac + kl_min)
    return np.where(batch_idx > kl_warmup_end, kl_max, kl_warmup)
  return kl_warmup


def optimize_lfads_core(key, batch_idx_start, num_batches,
                        update_fun, kl_warmup_fun,
                        opt_state, lfads_hps, lfads_opt_hps, train_data):
  """Make gradient updates to the LFADS model.

  Uses lax.fori_loop instead of a Python loop to reduce JAX overhead. This 
    loop will be jit'd and run on device.

  Arguments:
    init_params: a dict of parameters to be trained
    batch_idx_start: Where are we in the total number of batches
    num_batches: how many batches to run
    update_fun: the function that changes params based on grad of loss
    kl_warmup_fun: function to compute the kl warmup
    opt_state: the jax optimizer state, containing params and opt state
    lfads_hps: dict of lfads model HPs
    lfads_opt_hps: dict of optimization HPs
    train_data: nexamples x time x ndims np array of data for training

  Returns:
    opt_state: the jax optimizer state, containing params and optimizer state"""

  key, dkeyg = utils.keygen(key, num_batches) # data
  key, fkeyg = utils.keygen(key, num_batches) # forward pass
  
  # Begin optimziation loop. Explicitly avoiding a python for-loop
  # so that jax will not trace it for the sake of a gradient we will not use.
  def run_update(batch_idx, opt_state):
    kl_warmup = kl_warmup_fun(batch_idx)
    didxs = random.randint(next(dkeyg), [lfads_hps['batch_size']], 0,
                           train_data.shape[0])
    x_bxt = train_data[didxs].astype(np.float32)
    opt_state = update_fun(batch_idx, opt_state, lfads_hps, lfads_opt_hps,
                           next(fkeyg), x_bxt, kl_warmup)
    return opt_state

  lower = batch_idx_start
  upper = batch_idx_start + num_batches
  return lax.fori_loop(lower, upper, run_update, opt_state)


optimize_lfads_core_jit = jit(optimize_lfads_core, static_argnums=(2,3,4,6,7))


def optimize_lfads(key, init_params, lfads_hps, lfads_opt_hps,
                   train_data, eval_data):
  """Optimize the LFADS model and print batch based optimization data.

  This loop is at the cpu nonjax-numpy level.

  Arguments:
    init_params: a dict of parameters to be trained
    lfads_hps: dict of lfads model HPs
    lfads_opt_hps: dict of optimization HPs
    train_data: nexamples x time x ndims np array of data for training

  Returns:
    a dictionary of trained parameters"""
  
  # Begin optimziation loop.
  all_tlosses = []
  all_elosses = []

  # Build some functions used in optimization.
  kl_warmup_fun = get_kl_warmup_fun(lfads_opt_hps)
  decay_fun = optimizers.exponential_decay(lfads_opt_hps['step_size'],
                                           lfads_opt_hps['decay_steps'],
                                           lfads_opt_hps['decay_factor'])

  opt_init, opt_update, get_params = optimizers.adam(step_size=decay_fun,
                                                     b1=lfads_opt_hps['adam_b1'],
                                                     b2=lfads_opt_hps['adam_b2'],
                                                     eps=lfads_opt_hps['adam_eps'])
  opt_state = opt_init(init_params)

  def update_w_gc(i, opt_state, lfads_hps, lfads_opt_hps, key, x_bxt,
                  kl_warmup):
    """Update fun for gradients, includes gradient clipping."""
    params = get_params(opt_state)
    grads = grad(lfads.lfads_training_loss)(params, lfads_hps, key, x_bxt,
                                            kl_warmup,
                                            lfads_opt_hps['keep_rate'])
    clipped_grads = optimizers.clip_grads(grads, lfads_opt_hps['max_grad_norm'])
    return opt_update(i, clipped_grads, opt_state)

 
  # Run the optimization, pausing every so often to collect data and
  # print status.
  batch_size = lfads_hps['batch_size']
  num_batches = lfads_opt_hps['num_batches']
  print_every = lfads_opt_hps['print_every']
  num_opt_loops = int(num_batches / print_every)
  params = get_params(opt_state)
  for oidx in range(num_opt_loops):
    batch_idx_start = oidx * print_every
    start_time = time.time()
    key, tkey, dtkey, dekey = random.split(random.fold_in(key, oidx), 4)
    opt_state = optimize_lfads_core_jit(tkey, batch_idx_start,
                                        print_every, update_w_gc, kl_warmup_fun,
                                        opt_state, lfads_hps, lfads_opt_hps,
                                        train_data)
    batch_time = time.time() - start_time

    # Losses
    params = get_params(opt_state)
    batch_pidx = batch_idx_start + print_every
    kl_warmup = kl_warmup_fun(batch_idx_start)
    # Training loss
    didxs = onp.random.randint(0, train_data.shape[0], batch_size)
    x_bxt = train_data[didxs].astype(onp.float32)
    tlosses = lfads.lfads_losses_jit(params, lfads_hps, dtkey, x_bxt,
                                     kl_warmup, 1.0)

    # Evaluation loss
    didxs = onp.random.randint(0, eval_data.shape[0], batch_size)
    ex_bxt = eval_data[didxs].astype(onp.float32)
    elosses = lfads.lfads_losses_jit(params, lfads_hps, dekey, ex_bxt,
                                     kl_warmup, 1.0)
    # Saving, printing.
    all_tlosses.append(tlosses)
    all_elosses.append(elosses)
    s1 = "Batches {}-{} in {:0.2f} sec, Step size: {:0.5f}"
    s2 = "    Training losses {:0.0f} = NLL {:0.0f} + KL IC {:0.0f},{:0.0f} + KL II {:0.0f},{:0.0f} + L2 {:0.2f}"
    s3 = "        Eval losses {:0.0f} = NLL {:0.0f} + KL IC {:0.0f},{:0.0f} + KL II {:0.0f},{:0.0f} + L2 {:0.2f}"
    print(s1.format(batch_idx_start+1, batch_pidx, batch_time,
                   decay_fun(batch_pidx)))
    print(s2.format(tlosses['total'], tlosses['nlog_p_xgz'],
                    tlosses['kl_g0_prescale'], tlosses['kl_g0'],
                    tlosses['kl_ii_prescale'], tlosses['kl_ii'],
                    tlosses['l2']))
    print(s3.format(elosses['total'], elosses['nlog_p_xgz'],
                    elosses['kl_g0_prescale'], elosses['kl_g0'],
                    elosses['kl_ii_prescale'], elosses['kl_ii'],
                    elosses['l2']))

    tlosses_thru_training = utils.merge_losses_dicts(all_tlosses)
    elosses_thru_training = utils.merge_losses_dicts(all_elosses)
    optimizer_details = {'tlosses' : tlosses_thru_training,
                         'elosses' : elosses_thru_training}
    
  return params, optimizer_details


  


# --- notebooks/LFADS Tutorial.ipynb ---
# cell 6
onp_rng = onp.random.RandomState(seed=0) # For CPU-based numpy randomness

# cell 16
# scaffolding: the notebook spikifies the integrator RNN's saved hidden states (an h5 file made by
# the integrator tutorial); a small Poisson stand-in of the same layout (batch x time x units) is used
data_bxtxn = onp_rng.poisson(2.0, size=(100, 25, 20))  # scaffolding
nexamples, ntimesteps, data_dim = data_bxtxn.shape
train_fraction = 0.9      # Train with 90% of the synthetic data
train_data, eval_data = utils.split_data(data_bxtxn,
                                         train_fraction=train_fraction)
eval_data_offset = int(train_fraction * data_bxtxn.shape[0])

# cell 34
# LFADS Hyper parameters
data_dim = train_data.shape[2]  # input to lfads should have dimensions:
ntimesteps = train_data.shape[1] #   (batch_size x ntimesteps x data_dim)
batch_size = 128      # batch size during optimization
batch_size = 16  # scaffolding: smaller batches for CPU

# LFADS architecture - The size of the numbers is rather arbitrary, 
# but relatively small because we know the integrator RNN isn't too high 
# dimensional in its activity.
enc_dim = 128         # encoder dim
con_dim = 128         # controller dim
ii_dim = 1            # inferred input dim, we know there is 1 dim in integrator RNN
gen_dim = 128         # generator dim, should be large enough to generate integrator RNN dynamics
factors_dim = 32      # factors dim, should be large enough to capture most variance of dynamics

# Numerical stability
var_min = 0.001 # Minimal variance any gaussian can become.

# Optimization HPs that percolates into model
l2reg = 0.00002

# cell 36
# Initial state prior parameters
# the mean is set to zero in the code
ic_prior_var = 0.1 # this is $\sigma^2_p$ in above paragraph

# cell 38
# Inferred input autoregressive prior parameters
# Again, these hyper parameters are set "in the ballpark" but otherwise
# pretty randomly.
ar_mean = 0.0                 # process mean
ar_autocorrelation_tau = 1.0  # seconds, how correlated each time point is, related to $\phi$ above.
ar_noise_variance = 0.1       # noise variance

# cell 39
lfads_hps = {'data_dim' : data_dim, 'ntimesteps' : ntimesteps,
             'enc_dim' : enc_dim, 'con_dim' : con_dim, 'var_min' : var_min,
             'ic_prior_var' : ic_prior_var, 'ar_mean' : ar_mean,
             'ar_autocorrelation_tau' : ar_autocorrelation_tau,
             'ar_noise_variance' : ar_noise_variance,
             'ii_dim' : ii_dim, 'gen_dim' : gen_dim,
             'factors_dim' : factors_dim,
             'l2reg' : l2reg,
             'batch_size' : batch_size}

# cell 41
num_batches = 20000         # how many batches do we train
print_every = 100            # give information every so often

# Learning rate HPs
step_size = 0.05            # initial learning rate
decay_factor = 0.9999      # learning rate decay param
decay_steps = 1             # learning rate decay param

# Regularization HPs
keep_rate = 0.98            # dropout keep rate during training

# Numerical stability HPs
max_grad_norm = 10.0        # gradient clipping above this value
num_batches = 4  # scaffolding: two print periods of 2 batches instead of 20000 batches, to run on CPU in seconds
print_every = 2  # scaffolding

# cell 43
# The fact that the start and end values are required to be floats is something I need to fix.
kl_warmup_start = 500.0 # batch number to start KL warm-up, explicitly float
kl_warmup_end = 1000.0  # batch number to be finished with KL warm-up, explicitly float
kl_min = 0.01 # The minimum KL value, non-zero to make sure KL doesn't grow crazy before kicking in.

# cell 45
kl_max = 1.0

# cell 46
lfads_opt_hps = {'num_batches' : num_batches, 'step_size' : step_size,
                 'decay_steps' : decay_steps, 'decay_factor' : decay_factor,
                 'kl_min' : kl_min, 'kl_max' : kl_max, 'kl_warmup_start' : kl_warmup_start,
                 'kl_warmup_end' : kl_warmup_end, 'keep_rate' : keep_rate,
                 'max_grad_norm' : max_grad_norm, 'print_every' : print_every,
                 'adam_b1' : 0.9, 'adam_b2' : 0.999, 'adam_eps' : 1e-1}

assert num_batches >= print_every and num_batches % print_every == 0

# fix: hashable (frozen) hyperparameter dicts, so they can be static arguments of jit
lfads_hps = FrozenDict(lfads_hps)  # fix
lfads_opt_hps = FrozenDict(lfads_opt_hps)  # fix

# cell 49
# Initialize parameters for LFADS
key = random.PRNGKey(onp.random.randint(0, utils.MAX_SEED_INT))
init_params = lfads.lfads_params(key, lfads_hps)

# cell 51
try:  # scaffolding
    key = random.PRNGKey(onp.random.randint(0, utils.MAX_SEED_INT))
    trained_params, opt_details = \
        optimize_lfads(key, init_params, lfads_hps, lfads_opt_hps,
                       train_data, eval_data)
    _report({"jit(optimize_lfads_core)"}, num_batches // print_every)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
