# source: https://github.com/checc1/qaoa_transferability/blob/8ace595c2a73030207c3343a7f00f64b786f3e10/code/pennylane/jax_pennylane/new_updated_codes/FIRST_LAYERS.py
# expect: jit-in-loop-or-body at line 80
# runtime: COMPILES 8 CALLS 19
# why: The layer-wise QAOA optimisation loop builds jax.jit(jax.grad(obj_function), device=...) anew at every step; the fresh grad function is a new cache key, so the gradient is traced and compiled again on every iteration.

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
import jax
from jax import numpy as jnp
import optax
import numpy as np
import warnings

warnings.filterwarnings("ignore")
available_devices = jax.devices()

threshold = 1e-4
opt_layers = 2
layers = 5
qubits = 4  # scaffolding: sys.argv[1]
opt_beta_gamma = jnp.asarray(np.random.default_rng(0).uniform(0, 1, size=(layers, 2)), dtype=jnp.float32)  # scaffolding: optimal_params.py
old_best_params = jnp.asarray(opt_beta_gamma[opt_layers:])


def circuit_qnodeNEW(weights: jnp.asarray, graph, edge):  # scaffolding: closed-form stand-in for the jitted pennylane qnode
    @jax.jit
    def qnode(weights):
        angles = weights[: layers - opt_layers]
        return jnp.cos(2 * angles[:, 0]).prod() * jnp.sin(2 * angles[:, 1] + 0.1 * (edge[0] + edge[1])).mean()
    result = qnode(weights)
    return result


N_CALLS = 0  # scaffolding


def qaoa_execution(seed: int, graph, graph_sorgent) -> tuple:
    global N_CALLS  # scaffolding
    @jax.jit
    def obj_function(weights: jnp.asarray):
        cost = 0
        for edge in graph:
            cost -= 0.5 * (1 - circuit_qnodeNEW(weights, graph, edge=edge))
        return cost

    cost = []
    optax_optimizer = optax.adagrad(learning_rate=0.1)
    layer_optimized = opt_beta_gamma[:opt_layers]
    opt_state = optax_optimizer.init(layer_optimized)
    steps = 6  # scaffolding: 500 in the script
    prev_obj_val = obj_function(opt_beta_gamma)
    N_CALLS += 1  # scaffolding
    num_occurrances = 0

    for i in range(steps):
        f = obj_function(opt_beta_gamma)
        N_CALLS += 1  # scaffolding
        if f != 0:
            grads = jax.jit(jax.grad(obj_function), device=available_devices[0])(layer_optimized)
            N_CALLS += 1  # scaffolding
            updates, opt_state = optax_optimizer.update(grads, opt_state)
            layer_optimized = optax.apply_updates(layer_optimized, updates)
            total_params = jnp.asarray(jnp.concatenate(arrays=[layer_optimized, old_best_params]))
            current_obj_val = obj_function(total_params)
            N_CALLS += 1  # scaffolding
            print(f"It {i}:", current_obj_val)
        else:
            break
        if prev_obj_val - current_obj_val > 0 and prev_obj_val - current_obj_val < threshold:
            num_occurrances += 1
        if num_occurrances > 3:
            break
        prev_obj_val = current_obj_val
        cost.append(current_obj_val)
    # (sampling with the counts qnode and max-cut scoring cut: scaffolding)
    return total_params


graph = [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]  # scaffolding: list(RandomGraph(qubits, prob=0.6, seed=s).edges)
qaoa_execution(0, graph, None)
_report({"jit(obj_function)"}, N_CALLS)
