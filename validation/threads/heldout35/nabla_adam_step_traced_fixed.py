# source: https://github.com/nabla-ml/nabla/blob/beab94acf34778270ff09ff048963cbf0ffe85e7/examples/test_jax_static_jit.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the same script's 'Regular JIT' half: step is an ordinary traced argument, so one compile serves all steps.

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
"""Test how JAX handles static JIT with changing parameters."""

import jax.numpy as jnp
from jax import jit


def adam_update_jax(param, grad, m, v, step):
    """Adam update that uses step parameter."""
    beta1, beta2, lr, eps = 0.9, 0.999, 0.001, 1e-8

    new_m = beta1 * m + (1.0 - beta1) * grad
    new_v = beta2 * v + (1.0 - beta2) * (grad * grad)

    # This line uses step in computation
    bias_correction1 = 1.0 - beta1**step
    bias_correction2 = 1.0 - beta2**step

    new_param = param - lr * (new_m / bias_correction1) / (
        (new_v / bias_correction2) ** 0.5 + eps
    )

    return new_param, new_m, new_v


# Regular JIT (should work fine)
adam_update_regular_jit = jit(adam_update_jax)


def test_jax_static_behavior():
    """Test how JAX handles static JIT with changing step."""
    print("Testing JAX static JIT behavior...")

    # Initialize test data
    param = jnp.array([[1.0, 2.0]])
    grad = jnp.array([[0.1, 0.2]])
    m = jnp.zeros_like(param)
    v = jnp.zeros_like(param)

    print("Initial param:", param)

    # Test regular JIT
    print("\n=== Regular JIT ===")
    param_jit, m_jit, v_jit = param, m, v
    for step in range(1, 6):  # scaffolding: was range(1, 4)
        param_jit, m_jit, v_jit = adam_update_regular_jit(
            param_jit, grad, m_jit, v_jit, step
        )
        print(f"Step {step} - param: {param_jit}")


if __name__ == "__main__":
    test_jax_static_behavior()
_report({"jit(adam_update_jax)"}, 5)  # scaffolding
