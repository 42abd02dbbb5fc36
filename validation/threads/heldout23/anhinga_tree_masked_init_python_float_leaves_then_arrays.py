# source: https://github.com/anhinga/2024-jax-drafts/blob/8f7b88fc323dbe9977596e0569c027640b33a91b/LLM-conversations/tree_masked_init_optimize_v2.py
# expect: shape-churn at line 46
# runtime: COMPILES 2 CALLS 10
# why: create_tree leaves the non-sentinel leaves as Python floats (weakly typed when traced), while step returns float32 arrays for every leaf, so the second call sees different input types and the jitted step compiles twice.
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

import jax
import jax.numpy as jnp
from jax import random
import jax.tree_util as tree_util
import optax

# Define a unique sentinel value that won't appear elsewhere in your data
SENTINEL = -9999.0

# Example tree-like structure with scalar-only leaves
tree_structure = {
    'branch1': {'0': 1.0, '1': SENTINEL, '2': 1.0},
    'branch2': {'leaf1': SENTINEL, 'leaf2': 1.0}
}

# Initialize random values for optimizable weights
def create_tree(rng_key, tree_structure):
    def initialize_leaf(key, leaf):
        if leaf == SENTINEL:
            return random.normal(key, ())
        return leaf
    
    leaves, treedef = tree_util.tree_flatten(tree_structure)
    rng_keys = random.split(rng_key, len(leaves))
    
    initialized_leaves = [initialize_leaf(rng_key, leaf) for rng_key, leaf in zip(rng_keys, leaves)]
    
    return tree_util.tree_unflatten(treedef, initialized_leaves)

# Initialize RNG key
rng_key = random.PRNGKey(0)

# Create the tree with initialized random numbers
random_tree = create_tree(rng_key, tree_structure)

# Define the loss function
def loss_fn(tree):
    # Example loss: sum of squares of all elements in the tree
    return sum([leaf ** 2 for leaf in tree_util.tree_leaves(tree)])

# Mask to ensure updates only apply to optimizable weights
def mask_tree(tree):
    return tree_util.tree_map(lambda x: x == SENTINEL, tree_structure)

# Adam optimizer
optimizer = optax.adam(learning_rate=0.1)
opt_state = optimizer.init(random_tree)

# Define the optimization step
@jax.jit
def step(tree, opt_state):
    loss, grads = jax.value_and_grad(loss_fn)(tree)
    
    # Apply mask to gradients
    mask = mask_tree(tree_structure)
    grads = tree_util.tree_map(lambda g, m: g if m else 0, grads, mask)
    
    updates, opt_state = optimizer.update(grads, opt_state)
    new_tree = optax.apply_updates(tree, updates)
    
    return new_tree, opt_state, loss

print(random_tree)

# Run optimization
for _ in range(10):
    random_tree, opt_state, loss = step(random_tree, opt_state)
    print(f'Loss: {loss}')
_report({"jit(step)"}, 10)  # scaffolding
