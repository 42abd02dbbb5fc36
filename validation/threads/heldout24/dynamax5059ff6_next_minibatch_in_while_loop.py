# source: https://github.com/probml/dynamax/commit/5059ff6b9c415efc97975d1b9aedce3d605afc71
# expect: stale-closure at line 96
# runtime: COMPILES 1 CALLS 1
# why: body_fun of lax.while_loop (inside lax.scan) is traced once, so next(sample_generator) runs once at trace time and every iteration of every epoch reuses the first minibatch: the fit converges to the first batch's mean (0.0), not the data mean (0.5).

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


# --- dynamax/utils/utils.py ---
import jax.numpy as jnp
import jax.random as jr
import optax
from optax import adam
from jax import lax, value_and_grad
from jax.tree_util import tree_map, tree_leaves


def pytree_len(pytree):
    """Return the number of leaves in a PyTree."""
    if pytree is None:
        return 0
    else:
        return len(tree_leaves(pytree)[0])


# --- dynamax/utils/optimize.py (before the commit) ---
def sample_minibatches(key, dataset, batch_size, shuffle):
    """Sequence generator.

    NB: The generator does not preform as expected when used to yield data
        within jit'd code. This is likely because the generator internally
        updates a state with each yield (which doesn't play well with jit).
    """
    n_data = pytree_len(dataset)
    perm = jnp.where(shuffle, jr.permutation(key, n_data), jnp.arange(n_data))
    for idx in range(0, n_data, batch_size):
        yield tree_map(lambda x: x[perm[idx:min(idx + batch_size, n_data)]], dataset)


def run_sgd(loss_fn,
            params,
            dataset,
            optimizer=optax.adam(1e-3),
            batch_size=1,
            num_epochs=50,
            shuffle=False,
            key=jr.PRNGKey(0)):
    """
    Note that batch_emissions is initially of shape (N,T)
    where N is the number of independent sequences and
    T is the length of a sequence. Then, a random susbet with shape (B, T)
    of entire sequence, not time steps, is sampled at each step where B is
    batch size.
    """
    opt_state = optimizer.init(params)
    num_batches = pytree_len(dataset)
    num_complete_batches, leftover = jnp.divmod(num_batches, batch_size)
    num_batches = num_complete_batches + jnp.where(leftover == 0, 0, 1)
    loss_grad_fn = value_and_grad(loss_fn)

    if batch_size >= num_batches:
        shuffle = False

    def train_step(carry, key):
        """One step of the algorithm."""
        params, opt_state = carry
        sample_generator = sample_minibatches(key, dataset, batch_size, shuffle)

        def cond_fun(state):
            """Condition for while loop."""
            itr, params, opt_state, avg_loss = state
            return itr < num_batches

        def body_fun(state):
            """Body of while loop."""
            itr, params, opt_state, avg_loss = state
            minibatch = next(sample_generator)  ## TODO: Does this work inside while_loop??
            this_loss, grads = loss_grad_fn(params, minibatch)
            updates, opt_state = optimizer.update(grads, opt_state)
            params = optax.apply_updates(params, updates)
            return itr + 1, params, opt_state, (avg_loss * itr + this_loss) / (itr + 1)

        init_val = (0, params, opt_state, 0.0)
        _, params, opt_state, avg_loss = lax.while_loop(cond_fun, body_fun, init_val)
        return (params, opt_state), avg_loss

    keys = jr.split(key, num_epochs)
    (params, _), losses = lax.scan(train_step, (params, opt_state), keys)
    return params, losses


# --- dynamax/utils/test_optimize.py (the commit's test, cut down) --- scaffolding
def _loss(a, x):
    return  jnp.sum((x - a)**2 / 2)

# Average `mini_batch_1`: 0.0
mini_batch_1 = jnp.array([ 0.5333575 ,  1.5523977 , -0.34479547, -0.80614984, -0.93481004])
# Average `mini_batch_2`: 1.0
mini_batch_2 = jnp.array([0.52032334, 1.6625587 , 1.1381058 , 1.2635592 , 0.41545272])
# Average `X_train`: 0.5
X_train = jnp.concatenate([mini_batch_1, mini_batch_2]).reshape(-1, 1)

param_init = jnp.array(0.5, dtype=jnp.float32)  # scaffolding: explicit dtype (the test's weak-typed jnp.array(0.5) would compile the grad twice)
settings = {
    'params': param_init, 'num_epochs': 100, 'optimizer': adam(5e-2), 'batch_size': 5,  # scaffolding: 100 epochs, lr 5e-2
}
# Train on X_train with mini batch size five (=half the dataset).
solution, losses = run_sgd(_loss, dataset=X_train, **settings)
print("solution", float(solution), "expected 0.5")  # scaffolding
_report({"jit(scan)"}, 1)  # scaffolding: one eager lax.scan over the epochs
