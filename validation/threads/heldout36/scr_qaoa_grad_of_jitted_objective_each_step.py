# source: https://github.com/checc1/qaoa_transferability/blob/8ace595c2a73030207c3343a7f00f64b786f3e10/code/pennylane/jax_pennylane/new_updated_codes/SELF_OPT_UPDATED_16qubits.py
# expect: none
# runtime: COMPILES 3 CALLS 19
# why: The full-parameter QAOA loop calls jax.grad(obj_function)(params) on the already-jitted objective at every step without wrapping it in a new jit, and jax caches the differentiated jitted call, so nothing recompiles per step.

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

jax.config.update('jax_platform_name', 'cpu')

warnings.filterwarnings("ignore")

threshold = 1e-4
layers = 5
qubits = 16


def circuit_qnode(weights: jnp.asarray, graph, edge):  # scaffolding: closed-form stand-in for the jitted pennylane qnode
    @jax.jit
    def qnode(weights: jnp.asarray):
        return jnp.cos(2 * weights[:, 0]).prod() * jnp.sin(2 * weights[:, 1] + 0.1 * (edge[0] + edge[1])).mean()
    result = qnode(weights)
    return result


N_CALLS = 0  # scaffolding


def qaoa_execution(seed: int, graph, graph_sorgent) -> tuple:
    global N_CALLS  # scaffolding
    @jax.jit
    def obj_function(weights: jnp.asarray):
        cost = 0
        for edge in graph:
            cost -= 0.5 * (1 - circuit_qnode(weights, graph, edge=edge))
        return cost

    cost = []
    optax_optimizer = optax.adagrad(learning_rate=0.1)  ### Adagrad
    key = jax.random.PRNGKey(seed)
    w = jax.random.uniform(key, shape=(layers, 2))
    params = 0.01 * jnp.asarray(w)
    opt_state = optax_optimizer.init(params)
    steps = 6  # scaffolding: 200 in the script
    prev_obj_val = obj_function(params)
    N_CALLS += 1  # scaffolding
    num_occurrances = 0

    for i in range(steps):
        f = jnp.asarray(obj_function(params))
        N_CALLS += 1  # scaffolding

        if f != 0:
            grads = jax.grad(obj_function)(params)
            N_CALLS += 1  # scaffolding
            updates, opt_state = optax_optimizer.update(grads, opt_state)
            params = optax.apply_updates(params, updates)
            current_obj_val = obj_function(params)
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
    return params


graph = [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]  # scaffolding: list(RandomGraph(qubits, prob=0.6, seed=s).edges)
qaoa_execution(50, graph, None)
_report({"jit(obj_function)"}, N_CALLS)
