# source: https://github.com/chiaolun/number_guessing_game/blob/07c363c2111d8bddd03149432c3548f485516b48/jax.ipynb
# expect: none
# runtime: COMPILES 4 CALLS 17
# why: The jitted optimal_guess is called inside the jitted objective, and jax.grad(objective) is rebuilt every loop step, but the inner jit is inlined, the grad-of-jit forward/backward computations are cached after the first step, and no shape or static value changes, so nothing recompiles after step 0.
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
# jax.ipynb of chiaolun/number_guessing_game (a personal exploration notebook: optimal guessing strategy, then optimise the prior with optax)
# cell 1
# import pandas as pd  # scaffolding: pandas is not installed here; it only plots the result in cell 8 (cut)
import jax
import jax.numpy as jnp
# cell 2
nguesses = 2  # scaffolding: 5 in the notebook (the unrolled Python loops take minutes to trace at 5 x 10)
N = 4  # scaffolding: 10 in the notebook
# cell 3
@jax.jit
def optimal_guess(pdf):
    V = jnp.zeros((nguesses + 1, N, N))
    
    # Pre-compute cumulative sums
    cumsum = jnp.cumsum(pdf)
    
    def get_range_sum(i, j):
        return cumsum[j] - jnp.where(i > 0, cumsum[i-1], 0)
    
    def compute_value(n, i, j, k):
        direct_reward = pdf[k] * n * 20
        left_mask = k > i 
        right_mask = k < j
        
        left_sum = get_range_sum(i, k-1)
        right_sum = get_range_sum(k+1, j)
        
        left_contribution = jnp.where(left_mask, left_sum * V[n-1, i, k-1], 0)
        right_contribution = jnp.where(right_mask, right_sum * V[n-1, k+1, j], 0)
        
        return direct_reward + left_contribution + right_contribution
    
    for n in range(1, nguesses + 1):
        for i in range(N):
            for j in range(i, N):
                k_range = jnp.arange(i, j + 1)
                values = jax.vmap(lambda k: compute_value(n, i, j, k))(k_range)
                V = V.at[n,i,j].set(jnp.max(values))
    
    return V
# cell 4
pdf = jnp.ones(N) / N
# cell 5
V = optimal_guess(pdf)  # scaffolding: %%time magic dropped
V[nguesses, 0, N - 1]
# cell 6
# Get gradient of V[nguesses, 0, N-1] with respect to pdf
# Use log-transform to ensure positivity and softmax to ensure sum to 1
def transform_params(x):
    return jax.nn.softmax(x)

# Initialize parameters in log space
init_params = jnp.log(pdf + 1e-8)  # Add small constant for numerical stability

@jax.jit
def objective(params):
    transformed_pdf = transform_params(params)
    V = optimal_guess(transformed_pdf)
    return V[nguesses, 0, N - 1]
# cell 7
# Use built-in Adam optimizer from optax
import optax

# Initialize optimizer
learning_rate = 0.01
optimizer = optax.adam(learning_rate)
opt_state = optimizer.init(init_params)

# Training loop parameters
num_steps = 100
improvement_threshold = 1e-6
patience = 5
window_size = 10

best_value = float('inf')
best_params = init_params
recent_values = []
no_improvement_count = 0

params = init_params
step = 0

while True:
    # Compute gradient and update parameters
    gradient = jax.grad(objective)(params)
    updates, opt_state = optimizer.update(gradient, opt_state)
    params = optax.apply_updates(params, updates)
    
    # Evaluate current solution
    value = objective(params)
    
    # Keep track of best solution
    if value < best_value:
        best_value = value
        best_params = params
    
    if step % 10 == 0:
        print(f"Step {step}, Value: {value}")
        recent_values.append(value)
        
        if len(recent_values) > window_size:
            # Check if there's been significant improvement in the last window
            improvement = recent_values[-window_size] - recent_values[-1]
            if improvement < improvement_threshold:
                no_improvement_count += 1
            else:
                no_improvement_count = 0
            
            if no_improvement_count >= patience:
                print(f"\nStopping early at step {step} due to no significant improvement")
                break
            
            recent_values.pop(0)  # Remove oldest value
    
    step += 1
    if step >= 8:  # scaffolding: the notebook runs until the patience rule stops it
        break  # scaffolding
# Get final optimized PDF
final_pdf = transform_params(best_params)
print("\nFinal objective value:", best_value)
print("Optimized PDF:", final_pdf)
_report({"jit(optimal_guess)", "jit(objective)"}, 1 + 2 * step)  # scaffolding: one direct optimal_guess call, then per step one grad(objective) and one objective
