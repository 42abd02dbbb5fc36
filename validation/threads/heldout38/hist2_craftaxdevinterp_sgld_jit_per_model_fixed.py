# source: https://github.com/GarretteBaker/CraftaxDevinterp/commit/a339053a70bf3d84e11678016562e5456df80673
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix builds the SGLD pieces once (get_sgld_params) and jits one lambda around the scan-based sgld_run outside the model loop, so the four checkpoints share a single compile.

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
# craftax/craftax/sgld_utils.py and the llc_estimation.py loop of GarretteBaker/CraftaxDevinterp at a339053 (the fix; run_sgld and run_sgld_with_scan cut)
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

def sgld_run(
        x_train, 
        y_train, 
        batch_size, 
        sgld_grad_fn, 
        sgldoptim, 
        loss_fn, 
        num_steps, 
        opt_state,
        param
):
    def sgld_step(optstateparam, unused):
        opt_state, param = optstateparam
        i = 0
        def inner_loop(carry, unused):
            i, param, opt_state = carry
            x_batch = jax.lax.dynamic_slice( # TODO: possibly modify these to have randomness, can just replace i with random int
                x_train, 
                (i * batch_size, 0), 
                (batch_size, x_train.shape[1])
            )
            y_batch = jax.lax.dynamic_slice(
                y_train, 
                (i * batch_size, 0), 
                (batch_size, y_train.shape[1])
            )
            _, grads = sgld_grad_fn(param, x_batch, y_batch)
            updates, opt_state = sgldoptim.update(grads, opt_state)
            param = optax.apply_updates(param, updates)
            loss = loss_fn(param, x_train, y_train)
            return (i+1, param, opt_state), loss
        (i, param, opt_state), losses = jax.lax.scan(
            inner_loop, (i, param, opt_state), jnp.arange(x_train.shape[0]//batch_size)
        )
        return (opt_state, param), losses
    (opt_state, param), losses = jax.lax.scan(
        sgld_step, (opt_state, param), None, length = num_steps
    )
    return losses        

def get_sgld_params(rngkey, loss_fn, sgld_config, param_init, x_train, y_train, itemp=None, trace_batch_loss=True, compute_distance=False, verbose=False):
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
    batch_size = sgld_config.batch_size
    return (
        x_train, 
        y_train, 
        batch_size, 
        sgld_grad_fn, 
        sgldoptim, 
        loss_fn, 
        sgld_config.num_steps, 
        opt_state, 
        param
    )

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

itemp = 0.01
num_training_data = len(expert_obses)
network_params = models[0]  # scaffolding: the script reuses the previous network_params here

sgld_params = get_sgld_params(
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
jitted_sgld_run = jax.jit(lambda network_params: sgld_run(
    sgld_params[0], 
    sgld_params[1], 
    sgld_params[2], 
    sgld_params[3], 
    sgld_params[4], 
    sgld_params[5], 
    sgld_params[6], 
    sgld_params[7], 
    network_params
))
n_models = 0  # scaffolding
for network_params in models:  # scaffolding: stands for the checkpoint loop over model_no
    loss_trace = jitted_sgld_run(network_params)

    init_loss = loss_fn(network_params, expert_obses, expert_logitses)
    n_models += 1  # scaffolding
_report({"jit(<lambda>)"}, n_models)  # scaffolding
