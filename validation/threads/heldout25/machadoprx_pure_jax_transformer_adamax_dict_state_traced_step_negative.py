# source: https://github.com/machadoprx/Pure-JAX-Transformer/blob/2a1175325a2699293dc522f0a61be3829417dc25/src/adamax.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: adamax is jitted and writes into its state dict argument, but that is the traced copy and the new state is returned; step and lr are traced, so it compiles once for 6 calls.
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


# file: src/adamax.py
import jax
import jax.numpy as jnp

@jax.jit
def adamax(params, grads, state, step, lr=1e-4, delta1=0.9, delta2=0.999):

    eps = 1e-8
    params_flat, tree = jax.tree_util.tree_flatten(params)
    grads_flat, _ = jax.tree_util.tree_flatten(grads)
    state_mom_flat, _ = jax.tree_util.tree_flatten(state['mom'])
    state_inf_flat, _ = jax.tree_util.tree_flatten(state['inf'])
    
    for i, (param, grad, state_mom, state_inf) in enumerate(zip(params_flat, grads_flat, state_mom_flat, state_inf_flat), 0):
        grad = jnp.mean(grad, axis=0)
        state_mom = delta1 * state_mom + (1. - delta1) * grad
        state_inf = jnp.maximum(delta2 * state_inf, jnp.abs(grad))
        curr_lr = lr / (1. - delta1**(step+1))
        param = param - ((curr_lr * state_mom) / (state_inf + eps))

        params_flat[i] = param
        state_mom_flat[i] = state_mom
        state_inf_flat[i] = state_inf

    state['mom'] = jax.tree_util.tree_unflatten(tree, state_mom_flat)
    state['inf'] = jax.tree_util.tree_unflatten(tree, state_inf_flat)
    params = jax.tree_util.tree_unflatten(tree, params_flat)

    return params, state

def lr_schedule(d_model, step, warmup_steps=400):
    x1 = 1/jnp.sqrt(step)
    x2 = step * (warmup_steps ** -1.5)
    if x1 > x2:
        out = x2
    else:
        out = x1
    return 1/jnp.sqrt(d_model) * out

# file: src/initializer.py (get_linear_params, get_ff_block_params)
def get_linear_params(rng, in_feat, out_feat, bias=False):
	rng, subkey = jax.random.split(rng)
	init = jax.nn.initializers.glorot_normal()
	weights = init(subkey, (in_feat, out_feat), jnp.float32)
	biases = None
	if bias:
		biases = jnp.zeros((1, out_feat))
	return rng, weights, biases

def get_ff_block_params(rng, in_feat, out_feat):
	rng, w1, b1 = get_linear_params(rng, in_feat, out_feat, bias=True)
	rng, w2, b2 = get_linear_params(rng, out_feat, in_feat, bias=True)
	rng, _ = jax.random.split(rng)
	return rng, {'W1':w1, 'W2':w2, 'b1':b1, 'b2':b2}

import numpy as np  # scaffolding

# scaffolding below: the optimizer part of src/train_lm.py's train_loop and run_train_lm.py's state setup,
# on one feed-forward block's params with stand-in per-example gradients (train_loop gets them from vmap(value_and_grad))
rng = jax.random.PRNGKey(42)  # scaffolding
rng, ff = get_ff_block_params(rng, 32, 128)  # scaffolding
params = {'encoder_0_ff_block': ff}  # scaffolding
hyper_params = {'hid_size': 32}  # scaffolding
leaves, tree = jax.tree_util.tree_flatten(params)  # run_train_lm.py
state = [jnp.zeros_like(p) for p in leaves]  # run_train_lm.py
state = jax.tree_util.tree_unflatten(tree, state)  # run_train_lm.py
state = {  # run_train_lm.py
	'mom':state,  # run_train_lm.py
	'inf':state  # run_train_lm.py
}  # run_train_lm.py
step = 0  # train_loop
for _ in range(6):  # scaffolding: six batches
	grads = jax.tree_util.tree_map(lambda p: jnp.stack([p * 0.01] * 8), params)  # scaffolding: per-example grads, batch 8
	lr = lr_schedule(hyper_params['hid_size'], step)  # train_loop
	params, state = adamax(params, grads, state, step, lr=lr)  # train_loop
	step += 1  # train_loop
print(float(params['encoder_0_ff_block']['W1'].sum()))  # scaffolding
_report({"jit(adamax)"}, 6)  # scaffolding
