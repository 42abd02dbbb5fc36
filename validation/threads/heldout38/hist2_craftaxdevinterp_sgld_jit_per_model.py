# source: https://github.com/GarretteBaker/CraftaxDevinterp/commit/a339053a70bf3d84e11678016562e5456df80673
# expect: jit-in-loop-or-body at line 93
# runtime: COMPILES 8 CALLS 4
# why: run_sgld, called once per checkpoint in the LLC-estimation loop, wraps a fresh lambda in jax.jit(jax.value_and_grad(...)) on every call, so each model's SGLD chain traces and compiles sgld_grad_fn again (twice here: the MALA check calls it once more with re-packed params).

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
# craftax/craftax/sgld_utils.py and the llc_estimation.py loop of GarretteBaker/CraftaxDevinterp at a339053^ (run_sgld_with_scan cut)
import haiku as hk
import jax
import jax.numpy as jnp
import jax.tree_util as jtree
import numpy as np
import optax 
from typing import NamedTuple
from jax.flatten_util import ravel_pytree  # scaffolding

def create_minibatches(inputs, targets, batch_size, shuffle=True):
    assert len(inputs) == len(targets)
    if shuffle:
        indices = np.random.permutation(len(inputs))
    else:
        indices = np.arange(len(inputs))

    for start_idx in range(0, len(inputs) - batch_size + 1, batch_size):
        excerpt = indices[start_idx:start_idx + batch_size]
        yield inputs[excerpt], targets[excerpt]

class SGLDConfig(NamedTuple):
  epsilon: float
  gamma: float
  num_steps: int
  num_chains: int = 1 
  batch_size: int = None

def mala_acceptance_probability(current_point, proposed_point, loss_and_grad_fn, step_size):
    """
    Calculate the acceptance probability for a MALA transition.

    Args:
    current_point: The current point in parameter space.
    proposed_point: The proposed point in parameter space.
    loss_and_grad_fn (function): Function to compute loss and loss gradient at a point.
    step_size (float): Step size parameter for MALA.

    Returns:
    float: Acceptance probability for the proposed transition.
    """
    # Compute the gradient of the loss at the current point
    current_loss, current_grad = loss_and_grad_fn(current_point)
    proposed_loss, proposed_grad = loss_and_grad_fn(proposed_point)

    # Compute the log of the proposal probabilities (using the Gaussian proposal distribution)
    log_q_proposed_to_current = -jnp.sum((current_point - proposed_point - (step_size * 0.5 * -proposed_grad)) ** 2) / (2 * step_size)
    log_q_current_to_proposed = -jnp.sum((proposed_point - current_point - (step_size * 0.5 * -current_grad)) ** 2) / (2 * step_size)

    # Compute the acceptance probability
    acceptance_log_prob = log_q_proposed_to_current - log_q_current_to_proposed + current_loss - proposed_loss
    return jnp.minimum(1.0, jnp.exp(acceptance_log_prob))

def run_sgld(rngkey, loss_fn, sgld_config, param_init, x_train, y_train, itemp=None, trace_batch_loss=True, compute_distance=False, verbose=False):
    num_training_data = len(x_train)
    if itemp is None:
        itemp = 1 / jnp.log(num_training_data)
    local_logprob = create_local_logposterior(
        avgnegloglikelihood_fn=loss_fn,
        num_training_data=num_training_data,
        w_init=param_init,
        gamma=sgld_config.gamma,
        itemp=itemp,
    )
    sgld_grad_fn = jax.jit(jax.value_and_grad(lambda w, x, y: -local_logprob(w, x, y), argnums=0))
    
    sgldoptim = optim_sgld(sgld_config.epsilon, rngkey)
    loss_trace = []
    distances = []
    accept_probs = []
    opt_state = sgldoptim.init(param_init)
    param = param_init
    t = 0
    while t < sgld_config.num_steps:
        for x_batch, y_batch in create_minibatches(x_train, y_train, batch_size=sgld_config.batch_size):
            old_param = param.copy()
            _, grads = sgld_grad_fn(param, x_batch, y_batch)
            updates, opt_state = sgldoptim.update(grads, opt_state)
            param = optax.apply_updates(param, updates)
            if compute_distance: 
                distances.append(param_lp_dist(param_init, param, ord=2))
            if trace_batch_loss:
                loss_trace.append(loss_fn(param, x_batch, y_batch))
            else:
                loss_trace.append(loss_fn(param, x_train, y_train))
            if t % 20 == 0:
                old_param_packed, pack_info = pack_params(old_param)
                param_packed, _ = pack_params(param)
                def grad_fn_packed(w):
                    nll, grad = sgld_grad_fn(unpack_params(w, pack_info), x_batch, y_batch)
                    grad_packed, _ = pack_params(grad)
                    return nll, grad_packed
                prob = mala_acceptance_probability(
                    old_param_packed, 
                    param_packed, 
                    grad_fn_packed, 
                    sgld_config.epsilon
                )
                accept_probs.append((t, prob))
            if t % (sgld_config.num_steps//10) == 0 and verbose:
                print(f"Step {t}, loss: {loss_trace[-1]}")
            t += 1
    return loss_trace, distances, accept_probs


def generate_rngkey_tree(key_or_seed, tree_or_treedef):
    rngseq = hk.PRNGSequence(key_or_seed)
    return jtree.tree_map(lambda _: next(rngseq), tree_or_treedef)

def optim_sgld(epsilon, rngkey_or_seed):
    @jax.jit
    def sgld_delta(g, rngkey):
        eta = jax.random.normal(rngkey, shape=g.shape) * jnp.sqrt(epsilon)
        return -epsilon * g / 2 + eta

    def init_fn(_):
        return rngkey_or_seed

    @jax.jit
    def update_fn(grads, state):
        rngkey, new_rngkey = jax.random.split(state)
        rngkey_tree = generate_rngkey_tree(rngkey, grads)
        updates = jax.tree_util.tree_map(sgld_delta, grads, rngkey_tree)
        return updates, new_rngkey
    return optax.GradientTransformation(init_fn, update_fn)


def create_local_logposterior(avgnegloglikelihood_fn, num_training_data, w_init, gamma, itemp):
    def helper(x, y):
        return jnp.sum((x - y)**2)

    def _logprior_fn(w):
        sqnorm = jax.tree_util.tree_map(helper, w, w_init)
        return jax.tree_util.tree_reduce(lambda a,b: a + b, sqnorm)

    def logprob(w, x, y):
        loglike = -num_training_data * avgnegloglikelihood_fn(w, x, y)
        logprior = -gamma / 2 * _logprior_fn(w)
        return itemp * loglike + logprior
    return logprob

# --- scaffolding: stand-ins for llc_utils, the haiku ActorCritic loss and the expert data ---
def pack_params(params):
    flat, unravel = ravel_pytree(params)
    return flat, unravel


def unpack_params(w, pack_info):
    return pack_info(w)


def param_lp_dist(a, b, ord=2):
    return jnp.linalg.norm(pack_params(a)[0] - pack_params(b)[0], ord=ord)


def loss_fn(params, obs, logits):
    return jnp.mean((obs @ params["w"] + params["b"] - logits) ** 2)


rng = np.random.default_rng(0)
expert_obses = jnp.asarray(rng.normal(size=(256, 8)), dtype=jnp.float32)
expert_logitses = jnp.asarray(rng.normal(size=(256, 4)), dtype=jnp.float32)
models = [{"w": jnp.full((8, 4), 0.01 * k), "b": jnp.zeros(4)} for k in range(4)]  # 4 checkpoints instead of 1525
rng_sgld = jax.random.PRNGKey(0)
# --- end scaffolding ---

sgld_config = SGLDConfig(
    epsilon = 0.0001, 
    gamma = 10, 
    num_steps = 10,  # scaffolding: 10 instead of 3000
    num_chains = 1,
    batch_size = 64)

n_models = 0  # scaffolding
for network_params in models:  # scaffolding: stands for the checkpoint loop over model_no
    num_training_data = len(expert_obses)
    itemp = 1e-5

    loss_trace, distances, acceptance_probs = run_sgld(
        rng_sgld, 
        loss_fn, 
        sgld_config, 
        network_params, 
        expert_obses, 
        expert_logitses, 
        itemp = itemp, 
        trace_batch_loss = True, 
        compute_distance = False, 
        verbose = False
    )
    init_loss = loss_fn(network_params, expert_obses, expert_logitses)
    n_models += 1  # scaffolding
_report({"jit(<lambda>)"}, n_models)  # scaffolding
