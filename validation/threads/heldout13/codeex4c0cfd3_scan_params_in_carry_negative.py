# source: https://code-examples.net/en/q/4c0cfd3/common-issues-and-solutions-for-jax-scan-with-extra-arguments
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: Constants dt and k threaded through the scan carry (Python floats next to an int input) keep a consistent carry type; the scan compiles once.

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
import jax.numpy as jnp

# Let's define some constants (our "additional arguments")
dt = 0.01
k = 0.5

# Define the dynamics function that uses our parameters
def dynamics(carry, x):
    # Unpack the state and the constant parameters
    state, dt_param, k_param = carry
    # Calculate the new state
    new_state = state + dt_param * k_param * x
    # Pack the new state and the *unchanged* parameters for the next iteration
    new_carry = (new_state, dt_param, k_param)
    # We return the new carry and an output (let's just return the new state)
    return new_carry, new_state

# Initial state and inputs
initial_state = 10.0
inputs = jnp.arange(1, 101)
# The initial carry includes the initial state AND the parameters
initial_carry = (initial_state, dt, k)
# Run the scan
final_carry, states = jax.lax.scan(dynamics, initial_carry, inputs)  # scaffolding: the stored page is cut off at this call
print(final_carry[0])  # scaffolding
_report({"jit(scan)"}, 1)  # scaffolding
