# source: https://github.com/machadoprx/Pure-JAX-Transformer/blob/2a1175325a2699293dc522f0a61be3829417dc25/src/layers.py
# expect: stale-closure at line 67
# runtime: COMPILES 3 CALLS 6
# why: dropout is jitted and calls np.random.randint inside, so the seed is drawn once at trace time and every call reuses the same dropout mask (two training forwards give identical outputs; the unjitted function gives different masks).
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


# file: src/layers.py
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, jit
from jax.nn import softmax, gelu
from functools import partial

@jax.jit
def embed(inputs, params):
	seq, pos_enc = inputs
	W = params['embed']
	hid_size = W.shape[0]
	out = jnp.stack([(W[:, x] * jnp.sqrt(hid_size)) + pos_enc[i] for x, i in zip(seq, range(len(seq)))], axis=0)
	return out

@partial(jax.jit, static_argnames=['training', 'causal', 'rate'])
def scaled_dot_product_att(inputs, rate=0.2, training=True, causal=False):
	Q, K, V, mask = inputs
	dim = Q.shape[-1] # dim model!?
	seq_len = Q.shape[-2]

	# (num_heads, len_q, dim) @ (num_heads,dim,len_k)
	QK = jnp.matmul(Q, jnp.transpose(K, axes=(0, 2, 1))) / jnp.sqrt(dim)

	if mask is not None:
		QK = jnp.where(mask, -1e9, QK)

	if causal == True:
		mask_causal = jnp.tril(jnp.ones((seq_len,seq_len)))
		mask_causal = mask_causal == 0
		QK = jnp.where(mask_causal, -1e9, QK)

	attn = dropout(softmax(QK, axis=-1), training=training, rate=rate)
	out = jnp.matmul(attn, V)
	return out, attn

@partial(jax.jit, static_argnames=['rate', 'training'])
def dropout(inputs, training=True, rate=0.2):
	broadcast_dims = ()
	seed = np.random.randint((1 << 63) - 1)
	rng = jax.random.PRNGKey(seed)
	if rate <= 0:
		return inputs

	if rate >= 1.0:
		return jnp.zeros_like(inputs)

	keep_prob = 1.0 - rate

	if not training:
		return inputs
	else:
		broadcast_shape = list(inputs.shape)
		for dim in broadcast_dims:
			broadcast_shape[dim] = 1
		mask = jax.random.bernoulli(rng, p=keep_prob, shape=broadcast_shape)
		mask = jnp.broadcast_to(mask, inputs.shape)
		return lax.select(mask, inputs / keep_prob, jnp.zeros_like(inputs))

def multihead_attention(inputs, params, hyper_params, key, training=True, causal=False):
	
	params_mha = params[key]
	Q, K, V, mask = inputs
	WQs, WKs, WVs, Wout, num_heads, rate = params_mha['WQs'], params_mha['WKs'], params_mha['WVs'], params_mha['Wout'], hyper_params['num_heads'], hyper_params['rate']

	q_size, k_size, v_size = Q.shape[0],K.shape[0],V.shape[0]
	dk = Q.shape[-1]
	dv = V.shape[-1]

	Qs = jit(jnp.matmul)(Q, WQs).reshape((q_size, num_heads, dk // num_heads))
	Ks = jit(jnp.matmul)(K, WKs).reshape((k_size, num_heads, dk // num_heads))
	Vs = jit(jnp.matmul)(V, WVs).reshape((v_size, num_heads, dv // num_heads))

	Qs, Ks, Vs = jnp.transpose(Qs, axes=(1, 0, 2)), jnp.transpose(Ks, axes=(1, 0, 2)), jnp.transpose(Vs,axes=(1, 0, 2)) # (num_heads, seq_len, hid_dim)

	out, attn = scaled_dot_product_att([Qs, Ks, Vs, mask], rate=rate, training=training, causal=causal) # (num_heads, seq_len, hid_dim), (num_heads, seq_len, seq_len)
	out = jnp.transpose(out, axes=(1, 0, 2)) # (seq_len, num_heads, hid_dim // num_heads)
	out = out.reshape(q_size, dv) # (seq_len, num_heads * hid_dim)

	out_proj = jit(jnp.matmul)(out, Wout)

	return out_proj, attn

@partial(jax.jit, static_argnames=['key', 'training', 'eps'])
def layer_norm(inputs, params, key, training=True, eps = 1e-9):
	
	params_ln = params[key]
	gamma, beta = params_ln['gamma'], params_ln['beta']
	
	mean = inputs.mean(axis=(-1,-2), keepdims=True)
	var = ((inputs - mean) ** 2).mean(axis=(-1,-2), keepdims=True)

	out = (inputs-mean)/jnp.sqrt(var + eps)
	out = (out * gamma) + beta
	return out

@partial(jax.jit, static_argnames=['key', 'training', 'rate'])
def ff_block(inputs, params, key, rate=0.2, training=True):
	params_ff = params[key]
	W1, W2 = params_ff['W1'], params_ff['W2']
	b1, b2 = params_ff['b1'], params_ff['b2']

	hid = dropout(gelu(jnp.matmul(inputs, W1) + b1), training=training, rate=rate)
	return jnp.matmul(hid, W2) + b2

# file: src/initializer.py (get_linear_params, get_ff_block_params, get_mha_params, get_ln_params)
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

def get_mha_params(rng, out_features, num_heads):
	wqkv_dim = out_features//num_heads
	rng, WQs, _ = get_linear_params(rng, out_features, num_heads * wqkv_dim, bias=False)
	rng, WKs, _ = get_linear_params(rng, out_features, num_heads * wqkv_dim, bias=False)
	rng, WVs, _ = get_linear_params(rng, out_features, num_heads * wqkv_dim, bias=False)
	rng, Wout, _ = get_linear_params(rng, num_heads * wqkv_dim, out_features, bias=False)
	rng, _ = jax.random.split(rng)
	return rng, {'WQs':WQs, 'WKs':WKs, 'WVs':WVs, 'Wout':Wout}

def get_ln_params(hid_size):
	gamma = jnp.ones((1,hid_size))
	beta = jnp.zeros((1,hid_size))
	return {'gamma':gamma, 'beta':beta}

# file: src/tranformer_modules.py (encoder_block)
def encoder_block(inputs, params, hyper_params, layer, training=True):

    x, mask = inputs
    ln = layer_norm(x, params, f'encoder_{layer}_ln_1', training=training, eps=hyper_params['eps'])
    mha, _ = multihead_attention([ln, ln, ln, mask], params, hyper_params, f'encoder_{layer}_mha', training=training, causal=False)
    mha = mha + x

    ln2 = layer_norm(mha, params, f'encoder_{layer}_ln_2',training=training, eps=hyper_params['eps'])
    out = ff_block(ln2, params, f'encoder_{layer}_ff_block', training=training, rate=hyper_params['rate'])
    out = out + mha

    return out


# scaffolding below: one encoder block of run_train_lm.py's model, smaller (hid 32, 4 heads, seq 8)
hyper_params = {'num_layers': 1, 'num_heads': 4, 'rate': 0.2, 'eps': 1e-7, 'hid_size': 32, 'max_len': 8}  # scaffolding: get_lm_params' dict
rng = jax.random.PRNGKey(42)  # scaffolding
params = {}  # scaffolding
rng, params['encoder_0_mha'] = get_mha_params(rng, 32, 4)  # scaffolding
rng, params['encoder_0_ff_block'] = get_ff_block_params(rng, 32, 128)  # scaffolding
params['encoder_0_ln_1'] = get_ln_params(32)  # scaffolding
params['encoder_0_ln_2'] = get_ln_params(32)  # scaffolding
x = jax.random.normal(rng, (8, 32))  # scaffolding: an embedded sequence of 8 tokens
mask = jnp.zeros((8, 8), dtype=bool)  # scaffolding: no padding
out1 = encoder_block([x, mask], params, hyper_params, 0, training=True)  # scaffolding: two training-mode forwards of the same input
out2 = encoder_block([x, mask], params, hyper_params, 0, training=True)  # scaffolding
d1 = dropout(jnp.ones((4, 8)), training=True, rate=0.5)  # scaffolding: the dropout mask itself, twice
d2 = dropout(jnp.ones((4, 8)), training=True, rate=0.5)  # scaffolding
np.random.seed(0)  # scaffolding
u1 = dropout.__wrapped__(jnp.ones((4, 8)), training=True, rate=0.5)  # scaffolding: the same function without jit
u2 = dropout.__wrapped__(jnp.ones((4, 8)), training=True, rate=0.5)  # scaffolding
print("jitted: same output twice:", bool(jnp.all(out1 == out2)), "same mask twice:", bool(jnp.all(d1 == d2)),  # scaffolding
      "| unjitted: same mask twice:", bool(jnp.all(u1 == u2)))  # scaffolding
_report({"jit(dropout)", "jit(ff_block)", "jit(scaled_dot_product_att)"}, 2 + 2 + 2)  # scaffolding: ff_block and scaled_dot_product_att once per forward, dropout twice directly
