# source: https://github.com/le-big-mac/Jaxformer/blob/6e6e914f00da9bfe9935f00447a9958acbabb391/basic/training.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: sgd_update branches with a Python if on train_embeddings inside @jit, but the flag is a default argument that callers never pass, so it stays a Python bool and sgd_update compiles once.

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
from jax import jit
import jax
import jax.numpy as jnp

# --- basic/training.py ---
def get_cross_entropy_loss(model):
    def cross_entropy_loss(param_dict, positional_encoding, x, y):
        return -jnp.sum(y * jnp.log(model(param_dict, positional_encoding, x))) / x.shape[0]
    return jit(cross_entropy_loss)

@jit
def sgd_update(param_dict, grads, learning_rate, train_embeddings=True):
    new_param_dict = {k: v - learning_rate * grads[k] for (k, v) in param_dict.items() if k != 'embeddings'}

    if train_embeddings:
        new_param_dict['embeddings'] = param_dict['embeddings'] - learning_rate * grads['embeddings']
        new_param_dict['embeddings'] = jnp.concatenate([jnp.zeros((1, new_param_dict['embeddings'].shape[1])), new_param_dict['embeddings'][1:]], axis=0)

    return new_param_dict


# scaffolding: stand-in parameters and gradients with the notebook's key layout (one decoder layer)
rng = jax.random.PRNGKey(0)
d_model, vocab_size, seq_len = 8, 40, 12
param_dict = {
    'qkw_0': jnp.ones((2, d_model, 2 * d_model)), 'vw_0': jnp.ones((2, d_model, d_model)),
    'lw_0': jnp.ones((2 * d_model, d_model)), 'fw_0': jnp.ones((d_model, d_model)), 'fb_0': jnp.ones((d_model,)),
    'ow': jnp.ones((seq_len * d_model, vocab_size)), 'ob': jnp.ones((vocab_size,)),
    'embeddings': jax.random.normal(rng, (vocab_size, d_model)),
}
learning_rate = 0.005
for step in range(5):  # scaffolding: the notebook's loop calls sgd_update(param_dict, grads, learning_rate)
    grads = jax.tree_util.tree_map(lambda p: 0.1 * p, param_dict)  # scaffolding
    param_dict = sgd_update(param_dict, grads, learning_rate)
_report({"jit(sgd_update)"}, 5)
